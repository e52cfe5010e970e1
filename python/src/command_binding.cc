#include "command_binding.h"

#include <pybind11/stl.h>

#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "depgraph_cli.h"

namespace py = pybind11;

namespace depgraph::python {

namespace {

// Runs `depgraph ARGS...` in process (DepgraphMain, the commands' own code): (exit code,
// stdout, stderr). An argument holding a NUL byte is a ValueError: the command would see a
// shorter string than the caller wrote (a different file). Commands run one at a time.
// Cost: that of the command.
py::tuple Run(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg.find('\0') != std::string::npos) {
      throw py::value_error("argument holds a NUL byte: " +
                            py::repr(py::str(arg)).cast<std::string>());
    }
  }
  std::ostringstream out, err;
  int code = 0;
  {
    py::gil_scoped_release release;
    static std::mutex command_mutex;
    std::lock_guard<std::mutex> lock(command_mutex);
    code = DepgraphMain(args, out, err);
  }
  return py::make_tuple(code, py::bytes(out.str()), py::bytes(err.str()));
}

}  // namespace

void BindCommands(py::module_& m) { m.def("_run", &Run, py::arg("args")); }

}  // namespace depgraph::python
