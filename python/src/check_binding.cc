#include "check_binding.h"

#include <pybind11/stl.h>

#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "derive_command.h"
#include "loaded_graph.h"

namespace py = pybind11;

namespace depgraph::python {

namespace {

// Runs `depgraph check PROGRAM [--set k=v]... [--sound] [--entry E] --max-findings 0` in
// process (RunCheckCommand, the command's own code): (exit code, report). Exit 1 and 2 (a bad
// program, an original that fails to run, a malformed binding) raise Error with the line the
// command prints. Calls from several Python threads run one after the other. Cost: that of
// the command (two shim runs, a diff, two audits).
py::tuple Check(const std::string& program, const std::map<std::string, py::object>& sets,
                bool sound, const std::string& entry, bool strict, bool warnings_as_errors,
                bool allow_empty) {
  // A path with a NUL would name a shorter, different file: refuse it as open() does.
  if (program.find('\0') != std::string::npos) throw py::value_error("embedded null byte");
  CheckArgs args;
  args.input = program;
  args.sound = sound;
  args.entry = entry;
  args.gate.strict = strict;
  args.gate.warnings_as_errors = warnings_as_errors;
  args.gate.allow_empty = allow_empty;
  args.max_findings = 0;
  for (const auto& [name, value] : sets) {
    std::string text;
    if (py::isinstance<py::bool_>(value)) {
      text = value.cast<bool>() ? "true" : "false";
    } else if (py::isinstance<py::int_>(value)) {
      text = py::str(value).cast<std::string>();
    } else {
      throw py::type_error("check: sets[" + name + "] must be an int or a bool");
    }
    args.sets.push_back(name + "=" + text);
  }
  std::ostringstream out, err;
  int code = 0;
  {
    py::gil_scoped_release release;
    // The shim has one current runtime per process (ShimRuntime::Bind): one check at a time.
    static std::mutex shim_mutex;
    std::lock_guard<std::mutex> lock(shim_mutex);
    code = RunCheckCommand(args, out, err);
  }
  if (code != 0 && code != 3) {
    std::string line = err.str();
    while (!line.empty() && line.back() == '\n') line.pop_back();
    if (line.rfind("error: ", 0) == 0) line.erase(0, 7);
    throw Error(line);
  }
  return py::make_tuple(code, out.str());
}

}  // namespace

void BindCheck(py::module_& m) {
  m.def("_check", &Check, py::arg("program"), py::arg("sets"), py::arg("sound"), py::arg("entry"),
        py::arg("strict") = false, py::arg("warnings_as_errors") = false,
        py::arg("allow_empty") = false);
}

}  // namespace depgraph::python
