"""Ways to reach the module: the repository root after the set-up command, and a wheel from
python/ (pip, offline) that works without the build tree's paths."""

import os
import shutil
import subprocess
import sys

import pytest
from conftest import BUILD, SOURCE

SMALL = "data/real/paged_attention/CaseSmall1/deps.json"
PROBE = ("import depgraph, sys; g = depgraph.load(sys.argv[1]); "
         "print(depgraph.__file__); print(g.stats()['edges'], len(g))")


def clean_env():
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


@pytest.mark.skipif(BUILD.resolve() != (SOURCE / "build").resolve(),
                    reason="the root's depgraph link points into build/, not this build")
def test_import_from_the_repository_root():
    done = subprocess.run([sys.executable, "-c", PROBE, SMALL], cwd=SOURCE, env=clean_env(),
                          capture_output=True, text=True, check=True)
    path, counts = done.stdout.splitlines()
    assert os.path.realpath(path).startswith(str((BUILD / "python" / "depgraph").resolve()))
    assert counts == "17 13"


def test_wheel_from_python_dir_installs_and_runs_elsewhere(tmp_path):
    # A copy of python/, so that setuptools' build/ and egg-info stay out of the source tree.
    src = tmp_path / "src"
    shutil.copytree(SOURCE / "python", src, ignore=shutil.ignore_patterns("build", "tests",
                                                                          "*.egg-info"))
    env = clean_env()
    env.update(DEPGRAPH_BUILD_DIR=str(BUILD), DEPGRAPH_SOURCE_DIR=str(SOURCE),
               PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
                    "-q", "-w", str(tmp_path / "dist"), str(src)], env=env, check=True,
                   cwd=tmp_path)
    wheels = list((tmp_path / "dist").glob("depgraph-*.whl"))
    assert len(wheels) == 1
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(site), str(wheels[0])], env=env, check=True, cwd=tmp_path)
    assert sorted(p.name for p in (site / "depgraph").glob("*.so"))[-1] == "libpto_shim.so"
    assert (site / "depgraph" / "py.typed").is_file()  # PEP 561: the stubs come along
    assert (site / "depgraph" / "__init__.pyi").is_file()
    env = clean_env()
    env["PYTHONPATH"] = str(site)
    done = subprocess.run([sys.executable, "-c", PROBE, str(SOURCE / SMALL)], env=env,
                          cwd=tmp_path, capture_output=True, text=True, check=True)
    path, counts = done.stdout.splitlines()
    assert path.startswith(str(site)) and counts == "17 13"
    # The shim comes from the wheel ($ORIGIN), not from the build tree.
    t34 = next((SOURCE / "data" / "passes").glob("t34_*.depir"))
    done = subprocess.run([sys.executable, "-c",
                           "import depgraph, sys; depgraph.check(sys.argv[1], sound=True); "
                           "print(open('/proc/self/maps').read())", str(t34)],
                          env=env, cwd=tmp_path, capture_output=True, text=True, check=True)
    shims = {line.split()[-1] for line in done.stdout.splitlines() if "libpto_shim" in line}
    assert shims == {str(site / "depgraph" / "libpto_shim.so")}


def test_a_python_without_wheel_gets_one_line_saying_what_to_do(tmp_path):
    # A `wheel` package that fails to import stands for a Python without it (pip's
    # --no-build-isolation build of a non-Debian Python): setup.py stops at once.
    shadow = tmp_path / "shadow" / "wheel"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text('raise ImportError("no wheel here")\n')
    env = clean_env()
    env["PYTHONPATH"] = str(tmp_path / "shadow")
    probe = subprocess.run([sys.executable, "-c", "import setuptools.command.bdist_wheel"],
                           env=env, capture_output=True)
    if probe.returncode == 0:
        pytest.skip("this setuptools builds wheels without the wheel package")
    for command in ("dist_info", "bdist_wheel"):
        done = subprocess.run([sys.executable, str(SOURCE / "python" / "setup.py"), command],
                              env=env, cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 1
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {sys.executable} has no `wheel`")
        assert "pip install wheel" in lines[0] and "python3-wheel" in lines[0]
        assert not list(tmp_path.glob("*.egg-info"))


def test_the_wheel_carries_the_type_stubs():
    # python/CMakeLists.txt lays them out in the build's package; setup.py's package_data
    # puts them into the wheel (test_wheel_from_python_dir... installs that one).
    package = BUILD / "python" / "depgraph"
    assert (package / "py.typed").is_file() and (package / "__init__.pyi").is_file()
