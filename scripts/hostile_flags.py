#!/usr/bin/env python3
"""Hostile-flags pass (docs/fuzzing.md, issue 25): every value-taking flag and positional of
every command, each given an empty, huge, negative, non-numeric and special-file value.

Usage: BUILD=build python3 scripts/hostile_flags.py [--fast] [--jobs N] [--only CMD]
(scripts/hostile_flags.sh wraps this). Each run gets a fresh scratch directory with copies of
small valid inputs, runs under a 20 s timeout (TIMEOUT) and a 4 GB address-space limit, and is
classified:

  OK        exit 0-3 with a one-line error on failure (a CLI11 usage hint line allowed), no
            output file created or changed by a failed run
  ALLOWED   a finding listed in ALLOWED below, with the reason it is acceptable
  FINDING   signal / exit >= 4 (crash), timeout (hang), empty or multi-line error, an error
            line over 1000 bytes, a Python traceback, a file created or changed by a failed
            run, or the command's normal exit on a clearly bad value

Exit 0 when there is no FINDING, 1 otherwise. Special files are made in the scratch directory
(a FIFO, char devices 1,3 and 1,5 when mknod is allowed, else symlinks to /dev/null and
/dev/zero), so a tool that wrongly replaces its output never touches the real /dev.
"""
import argparse
import concurrent.futures
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = float(os.environ.get("TIMEOUT", "20"))
MEMORY = 4 << 30

# Value classes: name -> the argument (None: made per run in the scratch directory).
VALUES = {
    "empty": "",
    "huge-number": "1" + "0" * 30,
    "huge-string": "9" * 100_000,  # one argv string is at most 128 KiB (MAX_ARG_STRLEN)
    "negative": "-1",
    "word": "abc",
    "devnull": "devnull",
    "devzero": "devzero",
    "fifo": "fifo",
    "directory": "adir",
    "nonexistent": "missing/none.json",
    "unwritable": "/proc/depgraph-hostile/out.json",
    "not-a-dir": "afile.txt/out.json",
}
FAST_VALUES = ["empty", "huge-number", "negative", "word", "fifo", "devzero", "directory"]
# Value classes that are valid file names for an output flag (a flag marked ":out"); every
# other class is no valid value for any flag, and the command's normal exit with it is reported.
VALID_OUTPUT_NAMES = {"huge-number", "negative", "word"}

# Commands: name -> (binary, base arguments, [(flag, extra args)]). A flag "#N" is the Nth
# argument of the base (a positional) replaced by the value; "--x=P" gives --x P<value>.
DG = "apps/depgraph/depgraph"
LIB = "tests/orchestrations/modules/liborch_hbg_vector_example.so"
HTML = ["--format", "html"]
COMMANDS = {
    "audit": (DG, ["audit", "deps.json"], [
        ("#1", []), ("--format", []), ("--summary:out", []), ("--func-names", []), ("-o:out", []),
        ("--max-findings", []), ("--threads", [])]),
    "diff": (DG, ["diff", "deps.json", "deps.json"], [
        ("#1", []), ("#2", []), ("--format", []), ("--summary:out", []), ("--func-names-a", []),
        ("--func-names-b", []), ("-o:out", []), ("--threads", [])]),
    "query": (DG, ["query", "deps.json", "--task", "0"], [
        ("#1", []), ("#3", []), ("--depth", []), ("--path", []), ("--grep", []),
        ("--func-names", []), ("--threads", [])]),
    "run": (DG, ["run", "p.depir", "-o", "out.json", "-q"], [
        ("#1", []), ("#3:out", []), ("--set", []), ("--set=n=", []), ("--entry", []),
        ("--name-map:out", [])]),
    "derive": (DG, ["derive", "p.depir"], [("#1", []), ("-o:out", [])]),
    "check": (DG, ["check", "p.depir"], [
        ("#1", []), ("--set", []), ("--set=n=", []), ("--entry", []), ("--format", []),
        ("--summary:out", []), ("--max-findings", [])]),
    "critical-path": (DG, ["critical-path", "tc"], [
        ("#1", []), ("--report:out", []), ("--top", []), ("--tol", []), ("--json:out", []),
        ("--cpm-weight", [])]),
    "wait-sim": (DG, ["wait-sim", "deps.json"], [
        ("#1", []), ("--bl", []), ("--json:out", []), ("--threads", [])]),
    "simulate": (DG, ["simulate", "tc/deps.json", "--machine", "tc/simulation.json"], [
        ("#1", []), ("#3", []), ("--records", []), ("--durations", []), ("--rank", []),
        ("--aic", []), ("--aiv", []), ("--orch", []), ("--edge-cost", []), ("--dispatch", []),
        ("--launch", []), ("--finish", []), ("--dummy-cost", []), ("--ring-capacity", []),
        ("--policy", []), ("--freq", []), ("--what-if", []), ("--cores", []),
        ("--cores=aic=", []), ("--rank-limit", []), ("--trace:out", []), ("-o:out", []),
        ("--func-names", []), ("--threads", [])]),
    "overlap": (DG, ["overlap", "tc/chip_swimlane_records.json", "8589934592", "8589934600"], [
        ("#1", []), ("#2", []), ("#3", []), ("--deps-json", []), ("--func-names", [])]),
    "swimlane": (DG, ["swimlane", "tc/chip_swimlane_records.json", "-o", "trace.json"], [
        ("#1", []), ("#3:out", []), ("-k", []), ("--func-names", []), ("--deps-json", [])]),
    "sched-overhead": (DG, ["sched-overhead", "--chip-swimlane-records-json",
                            "so/chip_swimlane_records.json"], [
        ("#2", []), ("--deps-json", [])]),
    "deps_viewer": ("apps/deps_viewer", ["deps.json", "-o", "dv.txt"], [
        ("#0", []), ("#2:out", []), ("--format", []), ("--edge-mode", []), ("--func-names", []),
        ("--threads", []), ("--layout", HTML), ("--engine", HTML), ("--direction", HTML),
        ("--layout-timeout", HTML)]),
    "orch_runner": ("apps/orch_runner/orch_runner", ["@LIB", "-a", "args.json", "-o", "o.json", "-q",
                                                    "--kernel-names", "A,B"], [
        ("#0", []), ("#2", []), ("#4:out", []), ("#7", []), ("-t", []), ("-t=FLOAT32:", []), ("-s", []),
        ("--runtime", []), ("--arch", []), ("--platform", []), ("--ring-heap-size", []),
        ("--entry", []), ("--config", []), ("--name-map:out", []),
        ("--orchestrator-name", [])]),
    "gen_graph": ("apps/gen_graph", ["--tasks", "10", "-o", "g.json", "-q"], [
        ("#1", []), ("#3:out", []), ("--shape", []), ("--seed", [])]),
}

# (command, flag, value class or "*") -> why the outcome is acceptable. Keep each reason short;
# docs/fuzzing.md ("Hostile flags pass (round 3)") has the same list.
ALLOWED = {
    ("*", "*", "empty"):
        "an empty value is the option's default, as if the flag were not given",
    ("query", "--grep", "*"): "a substring to search for: any text is valid",
    ("orch_runner", "#7", "*"): "--kernel-names: kernel labels, any text is valid",
    ("orch_runner", "--orchestrator-name", "*"): "a label for the name map: any text is valid",
    ("orch_runner", "-s", "negative"): "-1 is a documented u64 scalar (two's complement)",
    ("run", "--set=n=", "negative"): "an integer binding; one the run never looks up is legal",
    ("check", "--set=n=", "negative"): "an integer binding; one the run never looks up is legal",
    ("critical-path", "--top", "negative"): "documented: N <= 0 shows no rows (as the reference)",
    ("critical-path", "--top", "huge-number"): "documented: Python int(), clamped",
    ("critical-path", "--top", "huge-string"): "documented: Python int(), clamped",
    ("critical-path", "--tol", "negative"): "documented: negative tolerances are allowed",
    ("critical-path", "--tol", "huge-number"): "documented: Python int(), clamped",
    ("critical-path", "--tol", "huge-string"): "documented: Python int(), clamped",
    ("critical-path", "--report", "devnull"): "a file name inside each rank directory, where "
                                              "no such special file exists",
    ("critical-path", "--report", "devzero"): "as devnull: a plain name in each rank directory",
    ("critical-path", "--report", "fifo"): "as devnull: a plain name in each rank directory",
    ("critical-path", "--report", "directory"): "as devnull: a plain name in each rank directory",
    ("deps_viewer", "--layout-timeout", "huge-number"): "10^30 s is no limit in effect (a double)",
    ("run", "#3", "nonexistent"): "-o creates missing parent directories",
    ("orch_runner", "#4", "nonexistent"): "-o creates missing parent directories",
    ("swimlane", "--deps-json", "*"): "an unreadable deps.json is a warning and the trace has no "
                                      "arrows (reference behaviour, docs/swimlane.md)",
}
for _command, _flag in (("audit", "--func-names"), ("diff", "--func-names-a"),
                        ("diff", "--func-names-b"), ("query", "--func-names"),
                        ("simulate", "--func-names"), ("overlap", "--func-names"),
                        ("deps_viewer", "--func-names")):
    ALLOWED[(_command, _flag, "*")] = ("an unreadable name map is a warning, exit 0 "
                                       "(reference behaviour, docs/deps_viewer.md)")


def allowed_reason(command, flag, value_class):
    """The reason a finding is acceptable, or None."""
    return (ALLOWED.get((command, flag, value_class)) or ALLOWED.get((command, flag, "*")) or
            ALLOWED.get(("*", "*", value_class)))


def make_scratch(base, build):
    """A fresh scratch directory with copies of the small inputs and the special files."""
    d = tempfile.mkdtemp(prefix="hostile_", dir=base)
    shutil.copy(SAMPLES["deps"], os.path.join(d, "deps.json"))
    shutil.copytree(SAMPLES["timing"], os.path.join(d, "tc"))
    shutil.copytree(SAMPLES["sched"], os.path.join(d, "so"))
    shutil.copy(SAMPLES["depir"], os.path.join(d, "p.depir"))
    shutil.copy(SAMPLES["orch_args"], os.path.join(d, "args.json"))
    for root, dirs, files in os.walk(d):
        for name in dirs + files:
            os.chmod(os.path.join(root, name), 0o755 if name in dirs else 0o644)
    os.mkfifo(os.path.join(d, "fifo"))
    os.mkdir(os.path.join(d, "adir"))
    with open(os.path.join(d, "afile.txt"), "w") as f:
        f.write("x\n")
    for name, minor, target in (("devnull", 3, "/dev/null"), ("devzero", 5, "/dev/zero")):
        try:
            os.mknod(os.path.join(d, name), 0o666 | 0o020000, os.makedev(1, minor))
        except OSError:
            os.symlink(target, os.path.join(d, name))
    return d


def snapshot(d):
    """Path -> (size, mtime_ns) of every regular file under d."""
    out = {}
    for root, _dirs, files in os.walk(d):
        for name in files:
            p = os.path.join(root, name)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            if (st.st_mode & 0o170000) == 0o100000:
                out[os.path.relpath(p, d)] = (st.st_size, st.st_mtime_ns)
    return out


def limit_memory():
    """In the child: a 4 GB address-space limit."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def build_args(spec_base, flag, extra, value, build):
    """The argument list of one run."""
    args = [os.path.join(build, LIB) if a == "@LIB" else a for a in spec_base] + list(extra)
    if flag.startswith("#"):
        args[int(flag[1:])] = value
        return args
    prefix = ""
    if "=" in flag:
        flag, prefix = flag.split("=", 1)
    if flag in args and flag not in ("--set", "-t", "-s", "--cores", "--what-if"):
        args[args.index(flag) + 1] = prefix + value
    elif flag == "--path":
        args += [flag, value, value]
    else:
        args += [flag, prefix + value]
    return args


def error_lines(stderr):
    """stderr lines that are not a usage hint or a warning."""
    lines = []
    for line in stderr.splitlines():
        if line.startswith("Run with --help") or line.startswith("warning:") or " warning: " in line:
            continue
        lines.append(line)
    return lines


def run_one(job):
    """Runs one command x flag x value; returns a result dict."""
    command, flag, extra, value_class, build, base_rc, scratch_base = job
    binary, spec_base, _ = COMMANDS[command]
    is_output = flag.endswith(":out")
    flag = flag[:-len(":out")] if is_output else flag
    d = make_scratch(scratch_base, build)
    try:
        value = VALUES[value_class]
        args = build_args(spec_base, flag, extra, value, build)
        before = snapshot(d)
        start = time.monotonic()
        try:
            proc = subprocess.Popen([os.path.join(build, binary)] + args, cwd=d,
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, preexec_fn=limit_memory,
                                    start_new_session=True)
        except OSError as e:  # e.g. the build directory is being relinked
            return dict(command=command, flag=flag, value=value_class, rc=None, seconds=0,
                        status="FINDING", problems="cannot start: %s" % e, reason="",
                        first_error="")
        try:
            out, err = proc.communicate(timeout=TIMEOUT)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            rc = None
        seconds = time.monotonic() - start
        after = snapshot(d)
        err_text = err.decode("utf-8", "replace")
        problems = []
        if rc is None:
            problems.append("timeout after %gs" % TIMEOUT)
        elif rc < 0:
            problems.append("killed by signal %d (%s)" % (-rc, signal.Signals(-rc).name))
        elif rc > 3:
            problems.append("exit %d" % rc)
        if "Traceback (most recent call last)" in err_text:
            problems.append("Python traceback")
        if rc in (1, 2):
            lines = error_lines(err_text)
            if not lines:
                problems.append("exit %d with no error message" % rc)
            elif len(lines) > 1:
                problems.append("%d-line error: %s" % (len(lines), " | ".join(l[:80] for l in lines[:3])))
            # The value itself (up to 128 KiB) may be quoted; more than 1000 bytes besides is not.
            own = max(len(l.replace(value, "")) if value else len(l) for l in lines)
            if own > 1000:
                problems.append("error line of %d bytes besides the value" % own)
            changed = sorted(p for p in after if before.get(p) != after[p])
            if changed:
                problems.append("failed run left/changed " + ", ".join(changed[:4]))
        if rc == base_rc and not (is_output and value_class in VALID_OUTPUT_NAMES):
            problems.append("accepted (exit %d as on valid input)" % rc)
        first = (error_lines(err_text) or [""])[0][:160]
        status = "OK"
        reason = ""
        if problems:
            reason = allowed_reason(command, flag, value_class)
            status = "ALLOWED" if reason else "FINDING"
        return dict(command=command, flag=flag, value=value_class, rc=rc, seconds=seconds,
                    status=status, problems="; ".join(problems), reason=reason or "",
                    first_error=first)
    finally:
        shutil.rmtree(d, ignore_errors=True)


SAMPLES = {
    "deps": os.path.join(ROOT, "data/real/vector_example/default/deps.json"),
    "timing": os.path.join(ROOT, "data/timing/pa_small1_basic"),
    "sched": os.path.join(ROOT, "tests/data/sched_overhead/gen_decode24_l3/input"),
    "depir": os.path.join(ROOT, "data/passes/t01_manual_scope_raw_hazard_is_left_to_user_deps.depir"),
    "orch_args": os.path.join(ROOT, "tests/orchestrations/cases/hbg_vector_example.json"),
}


def base_exit(command, build, scratch_base):
    """Exit code of the command's base invocation (must be 0 or 3)."""
    binary, spec_base, _ = COMMANDS[command]
    d = make_scratch(scratch_base, build)
    try:
        args = [os.path.join(build, LIB) if a == "@LIB" else a for a in spec_base]
        p = subprocess.run([os.path.join(build, binary)] + args, cwd=d, capture_output=True,
                           timeout=TIMEOUT, preexec_fn=limit_memory)
        if p.returncode not in (0, 3):
            sys.exit("hostile_flags: base run of %s failed (exit %d): %s" %
                     (command, p.returncode, p.stderr.decode(errors="replace").strip()))
        return p.returncode
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fast", action="store_true", help="a subset of the values (for CTest)")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    ap.add_argument("--only", action="append", help="run only this command (repeatable)")
    ap.add_argument("--all", action="store_true", help="print every run, not only findings")
    opts = ap.parse_args()
    build = os.path.abspath(os.environ.get("BUILD", os.path.join(ROOT, "build")))
    classes = FAST_VALUES if opts.fast else list(VALUES)
    scratch_base = tempfile.mkdtemp(prefix="hostile_flags_")
    commands = opts.only or list(COMMANDS)
    jobs = []
    for command in commands:
        rc = base_exit(command, build, scratch_base)
        for flag, extra in COMMANDS[command][2]:
            for c in classes:
                jobs.append((command, flag, extra, c, build, rc, scratch_base))
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        results = list(pool.map(run_one, jobs))
    shutil.rmtree(scratch_base, ignore_errors=True)
    counts = {"OK": 0, "ALLOWED": 0, "FINDING": 0}
    for r in results:
        counts[r["status"]] += 1
    print("%-8s %-15s %-22s %-12s %5s  %s" % ("status", "command", "flag", "value", "exit", "what"))
    for r in results:
        if r["status"] == "FINDING" or (opts.all and r["status"] == "OK"):
            print("%-8s %-15s %-22s %-12s %5s  %s" % (
                r["status"], r["command"], r["flag"], r["value"],
                "-" if r["rc"] is None else r["rc"], r["problems"] or r["first_error"]))
    # Allowed outcomes, one line per command, flag and reason.
    groups = {}
    for r in results:
        if r["status"] == "ALLOWED":
            groups.setdefault((r["command"], r["flag"], r["reason"]), []).append(r["value"])
    for (command, flag, reason), values in groups.items():
        print("%-8s %-15s %-22s %s: %s" % ("ALLOWED", command, flag, ",".join(values), reason))
    print("hostile_flags: %d runs (%d commands x flags x %d values) in %.0f s: %d OK, %d ALLOWED, "
          "%d FINDING" % (len(results), len(jobs) // len(classes), len(classes),
                          time.monotonic() - start, counts["OK"], counts["ALLOWED"],
                          counts["FINDING"]))
    return 1 if counts["FINDING"] else 0


if __name__ == "__main__":
    sys.exit(main())
