// orch_runner: runs a compiled orchestration through the runtime shim and writes deps.json.
//
// Exit codes: 0 success; 1 the run failed (library, symbols, config check, a fatal error or
// exception in the orchestration, output write); 2 bad command line or run description.
// Nothing is written unless the run succeeded; outputs appear atomically.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_usage.h"
#include "process_memory.h"
#include "depgraph/internal/message_quote.h"
#include "depgraph/support/atomic_file.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/utf8.h"
#include "entry_args.h"
#include "orchestration_library.h"
#include "orchestration_run.h"

namespace depgraph::orch_runner {

namespace {

/// The command line, before it is merged with the description file.
struct Options {
  std::string library;
  std::string args_file;
  std::vector<std::string> tensors;
  std::vector<std::string> scalars;
  std::string runtime;
  std::string arch;
  std::string platform;
  std::string ring_heap_size;
  std::string entry;
  std::string config;
  std::string output = "deps.json";
  std::string kernel_names;
  std::string name_map;
  std::string orchestrator_name;
  bool quiet = false;
};

/// Prints "orch_runner: error: MESSAGE" and returns `code`. User text in MESSAGE is escaped
/// by whoever put it there; a line break left anywhere is escaped here, so it stays one line.
int Fail(const std::string& message, int code) {
  std::cerr << "orch_runner: error: " << EscapeForMessage(message) << "\n";
  return code;
}

/// The platform of the run: --platform, else the description's, else the arch's full chip.
/// Returns 0 or the exit code of a usage error (message printed).
int ResolvePlatform(const Options& opt, RunDescription* desc, RunSettings* settings) {
  if (!opt.platform.empty()) {
    Platform platform;
    FindPlatform(opt.platform, &platform);  // CLI11 checked the name
    desc->platform = platform;
  }
  Platform platform;
  if (desc->platform) {
    platform = *desc->platform;
  } else {
    FindPlatform(desc->arch && *desc->arch == "a5" ? "a5" : "a2a3", &platform);
  }
  const std::string_view family = PlatformArch(platform);
  if (desc->arch && !family.empty() && family != *desc->arch) {
    return Fail("platform " + platform.name + " is an " + std::string(family) +
                    " platform, but the arch is " + *desc->arch + " (--arch / \"arch\")",
                2);
  }
  settings->available_clusters = platform.clusters;
  settings->available_aiv = platform.aiv();
  return 0;
}

/// Parses a byte count with an optional K, M or G suffix (powers of 1024).
bool ParseBytes(const std::string& text, uint64_t* out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used, 10);
  } catch (...) {
    return false;
  }
  std::string suffix = text.substr(used);
  int shift = suffix.empty() ? 0 : suffix == "K" ? 10 : suffix == "M" ? 20 : suffix == "G" ? 30 : -1;
  if (shift < 0 || v == 0 || (shift > 0 && v > (UINT64_MAX >> shift))) return false;
  *out = static_cast<uint64_t>(v) << shift;
  return true;
}

/// The name map default path: name_map_<library stem>.json beside the deps.json output.
std::string DefaultNameMapPath(const std::string& output, const std::string& library) {
  std::string dir;
  if (size_t slash = output.rfind('/'); slash != std::string::npos) dir = output.substr(0, slash + 1);
  std::string stem = library.substr(library.rfind('/') == std::string::npos ? 0 : library.rfind('/') + 1);
  if (stem.rfind("lib", 0) == 0) stem = stem.substr(3);
  if (size_t dot = stem.find('.'); dot != std::string::npos) stem = stem.substr(0, dot);
  return dir + "name_map_" + stem + ".json";
}

/// The SceneTest-format name map (two-space indent, no final newline, as the real files).
std::string NameMapText(const RunDescription& desc) {
  nlohmann::ordered_json doc;
  doc["level"] = 2;
  doc["orchestrator_name"] = desc.orchestrator_name ? nlohmann::ordered_json(*desc.orchestrator_name)
                                                    : nlohmann::ordered_json(nullptr);
  nlohmann::ordered_json names = nlohmann::ordered_json::object();
  for (const auto& [id, name] : desc.kernel_names) names[std::to_string(id)] = name;
  doc["callable_id_to_name"] = names;
  return doc.dump(2);
}

/// Merges the description file and the command line into `desc` and `settings`.
/// Returns 0 or the exit code of a usage error (message printed).
int Resolve(const Options& opt, RunDescription* desc, RunSettings* settings) {
  std::string err;
  if (!opt.args_file.empty() && !LoadRunDescription(opt.args_file, desc, &err)) return Fail(err, 2);
  for (const std::string& spec : opt.tensors) {
    EntryTensor t;
    if (!ParseTensorSpec(spec, &t, &err)) return Fail(err, 2);
    desc->tensors.push_back(std::move(t));
  }
  for (const std::string& spec : opt.scalars) {
    uint64_t v = 0;
    if (!ParseScalarSpec(spec, &v, &err)) return Fail("--scalar: " + err, 2);
    desc->scalars.push_back(v);
  }
  if (!opt.runtime.empty()) desc->runtime = opt.runtime;
  if (desc->runtime && *desc->runtime == "host_build_graph") {
    settings->flavor = shim::RuntimeFlavor::kHostBuildGraph;
  }
  if (!opt.arch.empty()) desc->arch = opt.arch;
  if (int code = ResolvePlatform(opt, desc, settings); code != 0) return code;
  if (!opt.ring_heap_size.empty()) {
    uint64_t bytes = 0;
    if (!ParseBytes(opt.ring_heap_size, &bytes)) {
      return Fail("--ring-heap-size " + QuoteForMessage(opt.ring_heap_size) +
                      ": expected a byte count (e.g. 268435456 or 256M)",
                  2);
    }
    desc->ring_heap_size = bytes;
  }
  if (desc->ring_heap_size) settings->ring_heap_size = *desc->ring_heap_size;
  if (!opt.entry.empty()) desc->entry = opt.entry;
  if (desc->entry) settings->entry = *desc->entry;
  if (!opt.config.empty()) desc->config = opt.config;
  if (desc->config) {
    settings->config = *desc->config;
    settings->config_required = true;
  }
  if (!opt.kernel_names.empty()) {
    desc->kernel_names.clear();
    if (!ParseKernelNames(opt.kernel_names, &desc->kernel_names, &err)) return Fail(err, 2);
  }
  if (!opt.orchestrator_name.empty()) {
    if (FindInvalidUtf8(opt.orchestrator_name) != opt.orchestrator_name.size()) {
      return Fail(
          "--orchestrator-name " + QuoteForMessage(opt.orchestrator_name) + ": not valid UTF-8", 2);
    }
    desc->orchestrator_name = opt.orchestrator_name;
  }
  return 0;
}

/// The runner: parse, resolve, load, run, write. Returns the exit code.
int Main(int argc, char** argv) {
  Options opt;
  CLI::App app{"Run a compiled orchestration through the runtime shim and write deps.json.",
               "orch_runner"};
  app.set_version_flag("--version", cli::VersionLine("orch_runner"));
  // Named as the usage line names it; a missing one is reported by its description.
  app.add_option("LIBRARY", opt.library, "orchestration shared object (.so) to run")->required();
  app.add_option("-a,--args", opt.args_file, "run description (JSON; see docs/runtime_shim.md)");
  app.add_option("-t,--tensor", opt.tensors,
                 "entry tensor after the description's: DTYPE:D0xD1...[=v0,v1,...|@file.bin]")
      ->allow_extra_args(false);
  app.add_option("-s,--scalar", opt.scalars,
                 "u64 scalar after the description's: 42, 0x2a, -1, f32:1.5, f64:0.25")
      ->allow_extra_args(false);
  app.add_option("--runtime", opt.runtime, "runtime to imitate (default tensormap_and_ringbuffer)")
      ->check(CLI::IsMember({"tensormap_and_ringbuffer", "host_build_graph"}));
  app.add_option("--arch", opt.arch,
                 "chip: a2a3 (default) or a5; without --platform, its full chip's core counts")
      ->check(CLI::IsMember({"a2a3", "a5"}));
  app.add_option("--platform", opt.platform,
                 "rt_available_cluster/aiv_count: a2a3 24/48 (full chip, default), a2a3sim 8/16 "
                 "(the runtime's simulator), a5 36/72")
      ->check(CLI::IsMember({"a2a3", "a2a3sim", "a5"}));
  app.add_option("--ring-heap-size", opt.ring_heap_size, "bytes per ring heap (default 256M)");
  app.add_option("--entry", opt.entry, "entry symbol (default aicpu_orchestration_entry)");
  app.add_option("--config", opt.config, "config symbol (default aicpu_orchestration_config)");
  app.add_option("-o,--output", opt.output, "deps.json to write (default ./deps.json)");
  app.add_option("--kernel-names", opt.kernel_names,
                 "kernel names by id for the name map: A,B,C or 0=A,3=D");
  app.add_option("--name-map", opt.name_map,
                 "name map to write (default <output dir>/name_map_<library>.json)");
  app.add_option("--orchestrator-name", opt.orchestrator_name, "name map orchestrator_name");
  app.add_flag("-q,--quiet", opt.quiet, "no summary line on stdout");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // The option meant for a misspelled one, arguments named as the help names them.
    const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    return Fail(cli::DescribeParseError(app, e, args) + " (see --help)", 2);
  }

  RunDescription desc;
  RunSettings settings;
  if (int code = Resolve(opt, &desc, &settings); code != 0) return code;

  // An output must never replace an input (the library, the description, a data file).
  const std::string name_map_path =
      opt.name_map.empty() ? DefaultNameMapPath(opt.output, opt.library) : opt.name_map;
  const bool want_name_map = !desc.kernel_names.empty();
  std::vector<std::string> inputs = {opt.library, opt.args_file};
  for (const EntryTensor& t : desc.tensors) inputs.push_back(t.data_file);
  std::string err;
  if (!CheckOutputIsNotAnInput(opt.output, inputs, &err) ||
      (want_name_map && (!CheckOutputIsNotAnInput(name_map_path, inputs, &err) ||
                         !CheckOutputsDiffer(opt.output, name_map_path, &err)))) {
    return Fail(err, 2);
  }

  OrchestrationLibrary library;
  if (!library.Open(opt.library, &err)) return Fail(err, 1);
  std::unique_ptr<shim::ShimRuntime> runtime;
  if (RunOrchestration(library, desc, settings, &runtime, &err) != RunStatus::kOk) {
    return Fail(err, 1);
  }

  // The output directory is created on demand (a run directory such as out/case/).
  std::error_code mkdir_error;
  const std::filesystem::path output_dir = std::filesystem::path(opt.output).parent_path();
  if (!output_dir.empty()) std::filesystem::create_directories(output_dir, mkdir_error);

  // Both outputs are written to temporary files first and renamed only when both are complete.
  AtomicFile deps;
  if (!deps.Open(opt.output, &err)) return Fail(err, 1);
  if (!runtime->WriteDepsJson(deps.stream())) return Fail(opt.output + ": write failed", 1);
  AtomicFile name_map;
  if (want_name_map) {
    if (!name_map.Open(name_map_path, &err)) return Fail(err, 1);
    name_map.stream() << NameMapText(desc);
  }
  if (!deps.Commit(&err)) return Fail(err, 1);
  if (want_name_map && !name_map.Commit(&err)) {
    std::remove(opt.output.c_str());  // no partial outputs
    return Fail(err, 1);
  }

  if (!opt.quiet) {
    std::cout << opt.output << ": " << runtime->task_count() << " tasks, "
              << runtime->alloc_count() << " allocs, " << runtime->edge_count() << " edges";
    if (want_name_map) std::cout << "; " << name_map_path;
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

}  // namespace depgraph::orch_runner

int main(int argc, char** argv) {
  return depgraph::cli::RunReportingOutOfMemory(
      "orch_runner", [&] { return depgraph::orch_runner::Main(argc, argv); });
}
