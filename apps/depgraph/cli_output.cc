#include "cli_output.h"

#include "depgraph/support/input_file.h"

namespace depgraph {

bool OutputIsNotAnInputOrReport(const std::string& output, const std::vector<std::string>& inputs,
                                std::ostream& err) {
  std::string error;
  if (output.empty() || CheckOutputIsNotAnInput(output, inputs, &error)) return true;
  err << "error: " << error << "\n";
  return false;
}

}  // namespace depgraph
