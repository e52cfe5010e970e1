"""The type stubs (depgraph/__init__.pyi, with py.typed beside it): they name every public
function and class of the module and nothing else, with the same members and parameters; and,
when Debian's mypy (python3-mypy) is installed, a type checker accepts code using the API and
rejects code misusing it."""

import ast
import importlib.util
import inspect
import os
import pathlib
import subprocess
import sys
import types

import depgraph
import pytest

PACKAGE = pathlib.Path(depgraph.__file__).resolve().parent
STUB = PACKAGE / "__init__.pyi"


def stub_tree():
    return ast.parse(STUB.read_text(), filename=str(STUB))


def public(name):
    return not name.startswith("_")


def stub_top_level():
    """Public names the stub defines at module level: {name: ast node}."""
    names = {}
    for node in stub_tree().body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names[target.id] = node
    return {n: v for n, v in names.items() if public(n) or n == "__version__"}


def module_public():
    """Public names of the module: what it exports, no submodules."""
    return {n for n in dir(depgraph)
            if (public(n) or n == "__version__")
            and not isinstance(getattr(depgraph, n), types.ModuleType)}


def stub_members(cls_node):
    names = set()
    for node in cls_node.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if public(n)}


def runtime_members(cls):
    """Public members a class adds to its bases (pybind11's, tuple's, Exception's)."""
    inherited = set().union(*(dir(base) for base in cls.__mro__[1:]))
    own = {n for n in dir(cls) if public(n) and n not in inherited}
    if hasattr(cls, "_fields"):  # a NamedTuple: its fields
        own |= set(cls._fields)
    # Attributes set in __init__ (CheckResult, AuditReport.data, DiffReport.notes).
    init = cls.__dict__.get("__init__")
    if inspect.isfunction(init):
        source = inspect.getsource(init)
        own |= {n for n in _self_assignments(source) if public(n)}
    return own


def _self_assignments(source):
    tree = ast.parse(inspect.cleandoc("\n" + source) if source[0].isspace() else source)
    return {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name) and node.value.id == "self"}


def test_the_stubs_are_installed_with_the_module():
    assert STUB.is_file() and (PACKAGE / "py.typed").is_file()


def test_the_stubs_name_every_public_name_and_nothing_else():
    stub = set(stub_top_level()) - {"__all__"}
    assert stub == module_public(), (stub ^ module_public())
    assert stub == set(depgraph.__all__)


def test_every_class_has_its_members_in_the_stubs():
    top = stub_top_level()
    for name in sorted(module_public()):
        obj = getattr(depgraph, name)
        if not inspect.isclass(obj):
            continue
        assert isinstance(top[name], ast.ClassDef), name
        want, got = runtime_members(obj), stub_members(top[name])
        assert got == want, f"{name}: only in the stub {got - want}, only in the module {want - got}"


def test_every_function_has_its_parameters_in_the_stubs():
    top = stub_top_level()
    for name in sorted(module_public()):
        obj = getattr(depgraph, name)
        if not inspect.isfunction(obj):
            continue
        node = top[name]
        assert isinstance(node, ast.FunctionDef), name
        stub_params = [a.arg for a in node.args.args] + \
            ([node.args.kwarg.arg] if node.args.kwarg else [])
        runtime_params = list(inspect.signature(obj).parameters)
        assert stub_params == runtime_params, name


MYPY = importlib.util.find_spec("mypy") is not None
needs_mypy = pytest.mark.skipif(not MYPY, reason="mypy not installed (Debian: python3-mypy)")


def mypy(*args, cwd):
    env = dict(os.environ, MYPYPATH=str(PACKAGE.parent), PYTHONPATH=str(PACKAGE.parent))
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental",
                           "--cache-dir", os.devnull, *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@needs_mypy
def test_mypy_accepts_the_stubs_and_code_using_them(tmp_path):
    good = tmp_path / "good.py"
    good.write_text(
        "import depgraph\n"
        "g: depgraph.Graph = depgraph.load('deps.json')\n"
        "t: depgraph.Task = g.tasks[0]\n"
        "i: int = t.id + len(g)\n"
        "r = depgraph.audit(g)\n"
        "ok: bool = r.ok and depgraph.diff(g, g, closure=True).ok\n"
        "lost: list[int] = [o.pred + o.succ for o in depgraph.diff(g, g).orderings_lost]\n"
        "path = g.path(t, t)\n"
        "n: int = len(path) if path is not None else 0\n"
        "mode: str = g.reduce('reduced').mode\n")
    done = mypy("--strict", str(good), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


@needs_mypy
def test_mypy_rejects_code_misusing_the_api(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import depgraph\n"
                   "g = depgraph.load('deps.json')\n"
                   "s: str = g.tasks[0].id\n"          # an int
                   "depgraph.audit('deps.json')\n")    # needs a Graph
    done = mypy(str(bad), cwd=tmp_path)
    assert done.returncode == 1, done.stdout
    assert done.stdout.count("error:") == 2, done.stdout
