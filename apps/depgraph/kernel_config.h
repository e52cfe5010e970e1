// `-k kernel_config.py` of `depgraph swimlane`: the file is Python (it may compute paths and
// import modules), so python3 runs it in a child process, as the reference imports it, and
// hands back KERNELS' func_id -> name mapping as JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace depgraph {

/// Runs `python3` on the kernel config at `path` and reads its `KERNELS` list: *names becomes
/// `{"callable_id_to_name": {"<func_id>": name, ...}}`; entries without `func_id` or `name`
/// are skipped with the reference's warning lines in *warnings. False with one line in *err
/// when the file is missing or not a regular file (a FIFO, device, directory: refused before
/// python3 starts), python3 cannot be started, or the file fails or has no KERNELS.
/// Cost: one python3 start-up plus running the file.
bool LoadKernelConfig(const std::string& path, nlohmann::ordered_json* names,
                      std::vector<std::string>* warnings, std::string* err);

}  // namespace depgraph
