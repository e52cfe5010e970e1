#include "run_command.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>

#include "depgraph/support/atomic_file.h"
#include "depgraph/support/input_file.h"
#include "depgraph_orchestration/depir_interpreter.h"
#include "depgraph_passes/depir_parser.h"
#include "depgraph_passes/ssa_form.h"
#include "depgraph_shim/shim_runtime.h"

namespace depgraph {

namespace {

// <output dir>/name_map_<program stem>.json
std::string DefaultNameMapPath(const std::string& output, const std::string& input) {
  const std::filesystem::path dir = std::filesystem::path(output).parent_path();
  const std::string file = "name_map_" + std::filesystem::path(input).stem().string() + ".json";
  return dir.empty() ? file : (dir / file).string();
}

// The SceneTest-format name map, as orch_runner writes it.
std::string NameMapText(const passes::Program& program, const std::string& entry) {
  nlohmann::ordered_json doc;
  doc["level"] = 2;
  doc["orchestrator_name"] = entry;
  nlohmann::ordered_json names = nlohmann::ordered_json::object();
  for (const auto& [id, name] : DepirKernelNames(program)) names[std::to_string(id)] = name;
  doc["callable_id_to_name"] = names;
  return doc.dump(2);
}

}  // namespace

bool ParseSetBinding(const std::string& text, std::string* name, int64_t* value,
                     std::string* error) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    *error = "--set '" + text + "': expected name=value";
    return false;
  }
  *name = text.substr(0, eq);
  const std::string v = text.substr(eq + 1);
  if (v == "true" || v == "True") {
    *value = 1;
    return true;
  }
  if (v == "false" || v == "False") {
    *value = 0;
    return true;
  }
  size_t used = 0;
  try {
    *value = std::stoll(v, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || used == 0) {
    *error = "--set '" + text + "': value must be an integer, true or false";
    return false;
  }
  return true;
}

bool ParseSetBindings(const std::vector<std::string>& texts, std::map<std::string, int64_t>* values,
                      std::string* error) {
  for (const std::string& text : texts) {
    std::string name;
    int64_t value = 0;
    if (!ParseSetBinding(text, &name, &value, error)) return false;
    (*values)[name] = value;
  }
  return true;
}

int PrepareDepirRun(const std::string& input, const std::string& entry,
                    const std::vector<std::string>& sets, DepirRunOptions* options,
                    passes::Program* program, std::ostream& err) {
  options->entry = entry;
  options->filename = input;
  std::string error;
  if (!ParseSetBindings(sets, &options->sets, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  if (!passes::ParseDepirFile(input, program, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  passes::ConvertToSsa(program);  // the names' run-time meaning, written out (docs/depir.md)
  return 0;
}

int RunDepirCommand(const RunCommandArgs& args, std::ostream& out, std::ostream& err) {
  const std::string name_map_path =
      args.name_map.empty() ? DefaultNameMapPath(args.output, args.input) : args.name_map;
  std::string error;
  if (!CheckOutputIsNotAnInput(args.output, {args.input}, &error) ||
      !CheckOutputIsNotAnInput(name_map_path, {args.input}, &error) ||
      !CheckOutputsDiffer(args.output, name_map_path, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  DepirRunOptions options;
  passes::Program program;
  if (int code = PrepareDepirRun(args.input, args.entry, args.sets, &options, &program, err)) {
    return code;
  }
  shim::ShimConfig config;
  config.flavor = args.host_build_graph ? shim::RuntimeFlavor::kHostBuildGraph
                                        : shim::RuntimeFlavor::kTensormapRingbuffer;
  shim::ShimRuntime runtime(config);
  if (!RunDepirOnShim(program, options, &runtime, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  const std::string entry =
      !args.entry.empty() ? args.entry
                          : (program.FindFunction("main") != nullptr || program.functions.empty()
                                 ? std::string("main")
                                 : program.functions[0].name);

  std::error_code mkdir_error;
  const std::filesystem::path output_dir = std::filesystem::path(args.output).parent_path();
  if (!output_dir.empty()) std::filesystem::create_directories(output_dir, mkdir_error);
  // Both outputs go to temporary files and are renamed only when both are complete.
  AtomicFile deps;
  if (!deps.Open(args.output, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  if (!runtime.WriteDepsJson(deps.stream())) {
    err << "error: " << args.output << ": write failed\n";
    return 1;
  }
  AtomicFile names;
  if (!names.Open(name_map_path, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  names.stream() << NameMapText(program, entry);
  if (!deps.Commit(&error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  if (!names.Commit(&error)) {
    std::remove(args.output.c_str());  // no partial outputs
    err << "error: " << error << "\n";
    return 1;
  }
  if (!args.quiet) {
    out << args.output << ": " << runtime.task_count() << " tasks, " << runtime.alloc_count()
        << " allocs, " << runtime.edge_count() << " edges; " << name_map_path << "\n";
  }
  return 0;
}

}  // namespace depgraph
