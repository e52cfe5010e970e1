#include "viewer_options.h"

#include <CLI/CLI.hpp>

namespace depgraph {

namespace {

constexpr const char* kLongOptions[] = {
    "--output", "--format", "--edge-mode", "--engine", "--direction", "--func-names",
    "--show-tensor-info", "--explain", "--strict", "--stats", "--layout", "--help",
};

constexpr const char* kUsage =
    "usage: deps_viewer [-h] [-o OUTPUT] [--format {text,html,dot,json}]\n"
    "                   [--edge-mode {full,reduced,omitted,reduced_dataflow,omitted_dataflow,"
    "retained}]\n"
    "                   [--engine {dot,neato,sfdp,fdp,circo,twopi}]\n"
    "                   [--direction {TB,LR,BT,RL}] [--func-names FUNC_NAMES]\n"
    "                   [--show-tensor-info] [--explain] [--strict] [--stats]\n"
    "                   [--layout {graphviz,layered}]\n"
    "                   [input]\n";

int UsageError(std::ostream& err, const std::string& message) {
  err << kUsage << "deps_viewer: error: " << message << "\n";
  return 2;
}

// Expands unambiguous long-option prefixes ("--eng" -> "--engine"), as argparse does.
bool ExpandPrefixes(std::vector<std::string>* args, std::string* error) {
  for (std::string& arg : *args) {
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) continue;
    size_t eq = arg.find('=');
    std::string name = arg.substr(0, eq);
    std::vector<std::string> matches;
    for (const char* option : kLongOptions) {
      if (name == option) {
        matches = {option};
        break;
      }
      if (std::string_view(option).starts_with(name)) matches.push_back(option);
    }
    if (matches.size() > 1) {
      *error = "ambiguous option: " + name + " could match " + matches[0];
      for (size_t i = 1; i < matches.size(); ++i) *error += ", " + matches[i];
      return false;
    }
    if (matches.size() == 1) arg = matches[0] + (eq == std::string::npos ? "" : arg.substr(eq));
  }
  return true;
}

}  // namespace

int ParseViewerOptions(const std::vector<std::string>& raw_args, ViewerOptions* options,
                       std::ostream& out, std::ostream& err) {
  std::vector<std::string> args = raw_args;
  std::string error;
  if (!ExpandPrefixes(&args, &error)) return UsageError(err, error);

  CLI::App app{"Render, reduce and audit a runtime task dependency graph (deps.json).",
               "deps_viewer"};
  std::string edge_mode = "full";
  app.add_option("input", options->input,
                 "deps.json to read (default: newest outputs/**/deps.json)");
  app.add_option("-o,--output", options->output,
                 "output file (default: <input dir>/deps_viewer[_<mode>].<ext>)");
  app.add_option("--format", options->format, "output format")
      ->check(CLI::IsMember({"text", "html", "dot", "json"}));
  app.add_option("--edge-mode", edge_mode, "which edges to show")
      ->check(CLI::IsMember({"full", "reduced", "omitted", "reduced_dataflow",
                             "omitted_dataflow", "retained"}));
  app.add_option("--engine", options->engine, "Graphviz layout engine (html only)")
      ->check(CLI::IsMember({"dot", "neato", "sfdp", "fdp", "circo", "twopi"}));
  app.add_option("--direction", options->direction, "graph direction (html only)")
      ->check(CLI::IsMember({"TB", "LR", "BT", "RL"}));
  app.add_option("--func-names", options->func_names,
                 "name_map*.json with kernel names (default: newest sibling name_map*.json)");
  app.add_flag("--show-tensor-info", options->show_tensor_info,
               "html only: draw argument ports and one edge per annotation row");
  app.add_flag("--explain", options->explain,
               "reduced: also report redundant edges kept for creator tensor lifetime");
  app.add_flag("--strict", options->strict, "exit 3 when a reduction meets a cycle");
  app.add_option("--layout", options->layout,
                 "html: graphviz page or layered explorer page (default: by graph size)")
      ->check(CLI::IsMember({"graphviz", "layered"}));
  app.add_flag("--stats", options->stats,
               "print tasks, edges, depth, width and redundant/retained counts");

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    return UsageError(err, e.what());
  }
  ParseEdgeMode(edge_mode, &options->edge_mode);

  // The reference tool rejects html-only options in text mode when spelled out in full
  // (abbreviations slip through); same check, same order, before the input is looked at.
  if (options->format == "text") {
    for (const char* option : {"--engine", "--direction", "--show-tensor-info", "--layout"}) {
      for (const std::string& arg : raw_args) {
        if (arg == option || arg.starts_with(std::string(option) + "=")) {
          err << "error: " << option << " is only valid with --format html\n";
          return 2;
        }
      }
    }
  }
  return -1;
}

}  // namespace depgraph
