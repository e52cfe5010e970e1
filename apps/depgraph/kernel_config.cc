#include "kernel_config.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "depgraph/internal/message_quote.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_dom.h"

extern char** environ;

namespace depgraph {

namespace {

/// Runs the config with runpy (its __name__ "kernel_config", its own __file__) and writes the
/// mapping, the warnings, or the error to the file named by argv[2].
constexpr const char* kScript = R"PY(
import json, runpy, sys
source, target = sys.argv[1], sys.argv[2]
try:
    scope = runpy.run_path(source, run_name="kernel_config")
    if "KERNELS" not in scope:
        raise ValueError("kernel_config.py missing KERNELS definition")
    names, warnings = {}, []
    for entry in scope["KERNELS"]:
        if "func_id" not in entry:
            warnings.append(f"Warning: Kernel entry missing 'func_id', skipping: {entry}")
        elif "name" not in entry:
            warnings.append(f"Warning: Kernel entry for func_id={entry['func_id']} missing 'name', "
                            "will use default naming")
        else:
            name = entry["name"]
            plain = name is None or isinstance(name, (str, int, float, bool))
            names[str(entry["func_id"])] = name if plain else str(name)
    result = {"callable_id_to_name": names, "warnings": warnings}
except BaseException as e:  # the config's own failure, reported on one line
    result = {"error": (type(e).__name__ + ": " + str(e)).replace("\n", " ")}
with open(target, "w") as out:
    json.dump(result, out)
)PY";

}  // namespace

bool LoadKernelConfig(const std::string& path, nlohmann::ordered_json* names,
                      std::vector<std::string>* warnings, std::string* err) {
  const std::string shown = EscapeForMessage(path);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    *err = shown + ": kernel config file not found";
    return false;
  }
  // python3 would block forever on a FIFO and read /dev/zero until memory runs out.
  InputFileError refused;
  if (!CheckRegularInput(path, nullptr, &refused)) {
    *err = EscapeForMessage(refused.message);
    return false;
  }
  char result_path[] = "/tmp/depgraph_kernel_config_XXXXXX";
  const int fd = mkstemp(result_path);
  if (fd < 0) {
    *err = shown + ": cannot create a temporary file for python3's answer";
    return false;
  }
  close(fd);
  std::string source = path, target = result_path;
  std::string python = "python3", flag = "-c", script = kScript;
  char* argv[] = {python.data(), flag.data(), script.data(), source.data(), target.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "python3", nullptr, nullptr, argv, environ);
  int status = 0;
  if (spawned != 0 || waitpid(pid, &status, 0) < 0) {
    unlink(result_path);
    *err = shown + ": -k needs python3 to read the kernel config, and it could not be started";
    return false;
  }
  std::string text;
  InputFileError read_error;
  const bool read = ReadInputFile(target, kMaxSmallInputBytes, &text, &read_error);
  unlink(result_path);
  nlohmann::ordered_json doc;
  std::string parse_error;
  if (!read || text.empty() || !ParseJsonDocument(text, &doc, &parse_error) || !doc.is_object()) {
    *err = shown + ": python3 did not read the kernel config (exit status " +
           std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
    return false;
  }
  if (doc.contains("error")) {
    *err = shown + ": " + EscapeForMessage(doc["error"].is_string() ? doc["error"].get<std::string>() : JsonValueForMessage(doc["error"]));
    return false;
  }
  for (const auto& line : doc["warnings"]) {
    if (line.is_string()) warnings->push_back(line.get<std::string>());
  }
  *names = nlohmann::ordered_json::object();
  (*names)["callable_id_to_name"] = doc["callable_id_to_name"];
  return true;
}

}  // namespace depgraph
