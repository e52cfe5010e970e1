// gen_graph: writes a synthetic deps.json for benchmarks and scale tests.
//
//   gen_graph --shape decode|chain|wide|random|chain_to_last|hub|dense --tasks N --seed S -o out.json
//             [--timing-records]
//
// The output is deterministic for given options and is written atomically.
#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "cli_usage.h"
#include "process_memory.h"
#include "graph_generator.h"
#include "synthetic_timing.h"
#include "unsigned_option.h"

namespace {

/// The tool: parses flags, writes the graph (and its timing records), prints a summary.
int GenGraphMain(int argc, char** argv) {
  CLI::App app{"Writes a synthetic, deterministic deps.json task-dependency capture."};
  std::string shape_name = "decode";
  std::string output;
  gen_graph::GenOptions options;
  bool quiet = false;
  app.add_option("--shape", shape_name,
                 "decode | chain | wide | random | chain_to_last | hub | dense")
      ->check(CLI::IsMember(
          {"decode", "chain", "wide", "random", "chain_to_last", "hub", "dense"}));
  app.add_option("--tasks", options.tasks, "number of tasks[] entries")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1000000000}));
  app.add_option("--seed", options.seed, "random seed")
      ->check(depgraph::cli::UnsignedAtMost(UINT64_MAX));
  app.add_option("-o,--output", output, "output deps.json")->required();
  app.add_flag("-q,--quiet", quiet, "print nothing on success");
  bool timing = false;
  app.add_flag("--timing-records", timing,
               "also write a synthetic chip_swimlane_records.json and name_map_gen_graph.json "
               "beside the output (a seeded list schedule on 24 AIC + 48 AIV cores)");
  app.set_version_flag("--version", depgraph::cli::VersionLine("gen_graph"));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    std::cerr << "gen_graph: error: " << depgraph::cli::DescribeParseError(app, e, args)
              << "\nRun with --help for usage.\n";
    return 2;
  }
  gen_graph::ParseShape(shape_name, &options.shape);

  const auto start = std::chrono::steady_clock::now();
  gen_graph::GenStats stats;
  std::string err;
  if (!gen_graph::WriteGraphFile(options, output, &stats, &err)) {
    std::cerr << "gen_graph: " << err << "\n";
    return 1;
  }
  if (timing) {
    gen_graph::TimingOptions timing_options;
    timing_options.seed = options.seed;
    const std::string dir = std::filesystem::path(output).parent_path().string();
    if (!gen_graph::WriteSyntheticTiming(output, dir.empty() ? "." : dir, timing_options,
                                         &err)) {
      std::cerr << "gen_graph: " << err << "\n";
      return 1;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!quiet) {
    std::cout << output << ": shape " << gen_graph::ShapeName(options.shape) << ", seed "
              << options.seed << ", " << stats.tasks << " tasks, " << stats.tensors
              << " tensors, " << stats.edges << " edge rows, " << stats.bytes << " bytes in "
              << seconds << " s\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return depgraph::cli::RunReportingOutOfMemory("gen_graph",
                                                [&] { return GenGraphMain(argc, argv); });
}
