"""Shared paths and helpers of the Python module's tests. CTest (python/CMakeLists.txt) sets
PYTHONPATH to the build's python/ directory and names the tools of the same build; run by hand,
the defaults are the repository's build/."""

import json
import os
import pathlib
import subprocess

import pytest

SOURCE = pathlib.Path(os.environ.get("DEPGRAPH_SOURCE_DIR",
                                     pathlib.Path(__file__).resolve().parents[2]))
BUILD = pathlib.Path(os.environ.get("DEPGRAPH_BUILD_DIR", SOURCE / "build"))
CLI = os.environ.get("DEPGRAPH_CLI", str(BUILD / "apps" / "depgraph" / "depgraph"))
VIEWER = os.environ.get("DEPGRAPH_VIEWER", str(BUILD / "apps" / "deps_viewer"))
REAL = SOURCE / "data" / "real"

#: Every real capture of data/real (directories holding a deps.json).
CAPTURES = sorted(p.parent for p in REAL.glob("*/*/deps.json"))


def capture_id(path):
    return str(path.relative_to(REAL))


def run_tool(*args, check=None):
    """Runs a tool of this build: (exit code, stdout, stderr)."""
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=300)
    if check is not None:
        assert done.returncode == check, done.stderr
    return done.returncode, done.stdout, done.stderr


def cli_json(*args):
    """`depgraph ARGS --json`, parsed, and its exit code."""
    code, out, err = run_tool(CLI, *args, "--json")
    assert code in (0, 3), err
    return code, json.loads(out)


@pytest.fixture
def pa_small():
    """paged_attention CaseSmall1: 13 tasks on two rings, with a name map."""
    return REAL / "paged_attention" / "CaseSmall1" / "deps.json"


@pytest.fixture
def dep_probe():
    """dep_probe: the capture with races and false serialization."""
    return REAL / "dep_probe" / "default" / "deps.json"
