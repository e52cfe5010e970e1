#include "viewer_options.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "cli_usage.h"

namespace depgraph {

namespace {

// One option of the command line. `value` names its argument (nullptr for a flag); `choices`
// lists the accepted values, comma-separated (nullptr: any value).
struct OptionSpec {
  std::string_view name;
  char short_name;
  const char* value;
  const char* choices;
};

// More threads than this is surely a typo.
constexpr unsigned long kMaxThreads = 1024;

constexpr OptionSpec kOptions[] = {
    {"--help", 'h', nullptr, nullptr},
    {"--version", 0, nullptr, nullptr},
    {"--output", 'o', "FILE", nullptr},
    {"--format", 0, "FORMAT", "text,html,dot,json"},
    {"--edge-mode", 0, "MODE", "full,reduced,omitted,reduced_dataflow,omitted_dataflow,retained"},
    {"--engine", 0, "ENGINE", "dot,neato,sfdp,fdp,circo,twopi"},
    {"--direction", 0, "DIRECTION", "TB,LR,BT,RL"},
    {"--func-names", 0, "FILE", nullptr},
    {"--show-tensor-info", 0, nullptr, nullptr},
    {"--explain", 0, nullptr, nullptr},
    {"--strict", 0, nullptr, nullptr},
    {"--stats", 0, nullptr, nullptr},
    {"--layout", 0, "LAYOUT", "graphviz,layered"},
    {"--dot-layout-form", 0, nullptr, nullptr},
    {"--layout-timeout", 0, "SECONDS", nullptr},
    {"--threads", 0, "N", nullptr},
};

constexpr const char* kHelp =
    R"(usage: deps_viewer [input] [-o FILE] [--format text|html|dot|json] [--edge-mode MODE]
                   [--func-names FILE] [--stats] [--explain] [--strict] [--threads N]
                   [--layout graphviz|layered] [--engine ENGINE] [--direction TB|LR|BT|RL]
                   [--show-tensor-info] [--layout-timeout SECONDS] [--dot-layout-form]

Reads a runtime's task dependency capture (deps.json), selects which (pred, succ) task pairs
to show, and writes a text report, an HTML page, Graphviz DOT or a JSON summary beside it.

  input                   the deps.json to read (default: the newest deps.json under ./outputs/)
  -o, --output FILE       where to write (default: <input dir>/deps_viewer[_MODE].<format>)
  --format FORMAT         text: the report of the reference tool, byte for byte (default)
                          html: an interactive page (Graphviz layout, or the explorer when large)
                          dot:  Graphviz source of the graph
                          json: counts and the shown and listed pairs, for scripts
  --func-names FILE       kernel names (name_map*.json; default: the newest one beside the input)
  --stats                 also print tasks, edges, rows, depth, width, redundant and retained
  --strict                exit 3 when the graph has a cycle, whatever the edge mode
  --threads N             threads that parse and reduce the input (default 0: every core);
                          the output is the same for any N
  -h, --help              print this help
  --version               print the version

Edge modes (--edge-mode MODE): a pair (u, v) is redundant when v is also reachable from u
through other tasks; a "creator" pair keeps v's tensor alive, so it matters beyond ordering.
  full                    every pair (default)
  reduced                 every pair but the redundant ones; creator pairs always stay
  omitted                 only the pairs `reduced` removes
  reduced_dataflow        as reduced, and a creator pair goes too when a byte-level proof shows
                          every byte of the task's view arrives from and leaves to tasks that
                          hold the same tensor (its lifetime is kept without the pair)
  omitted_dataflow        only the pairs `reduced_dataflow` removes
  retained                only the redundant pairs `reduced` keeps because they are creator pairs
  --explain               with reduced: say how many redundant pairs creator rows kept
  In a reduction mode stdout lists the removed (or shown) pairs. A cycle disables reduction:
  the full graph is written to deps_viewer.<format> with a warning naming one cycle.

HTML (--format html):
  --layout LAYOUT         graphviz: Graphviz page (default up to 300 tasks and 1,000 pairs)
                          layered: the explorer page, for graphs of any size
  --engine ENGINE         Graphviz engine: dot (default), neato, sfdp, fdp, circo, twopi
  --direction DIRECTION   LR (default), TB, BT or RL
  --show-tensor-info      tasks as tables of their arguments, one edge per edge row
  --layout-timeout SECONDS  stop a Graphviz layout that takes longer (default: no limit)
  A Graphviz layout beyond those sizes warns with an estimate first and shows its progress.

DOT (--format dot):
  --dot-layout-form       the DOT the html page lays out: every pair, the ones not in the
                          edge mode coloured as the page background (default: only the
                          pairs of the edge mode, and an xN badge beside each SPMD task)

Long options may be shortened to any unambiguous prefix (--edge omitted).

Examples:
  deps_viewer outputs/run1/deps.json                   # deps_viewer.txt beside the input
  deps_viewer deps.json --edge-mode reduced            # list and drop the redundant pairs
  deps_viewer deps.json --edge-mode retained           # the redundant pairs creator rows keep
  deps_viewer deps.json --format html                  # open deps_viewer.html in a browser
  deps_viewer deps.json --format dot -o g.dot          # then: dot -Tsvg g.dot -o g.svg
  deps_viewer deps.json --format json --edge-mode reduced_dataflow
  deps_viewer deps.json --stats --strict               # depth and width; exit 3 on a cycle

Exit status:
  0  the output was written (also for a cycle without --strict)
  1  the input is missing or invalid, the output cannot be written, or Graphviz failed,
     crashed or ran out of time; no output file is left behind
  2  usage error
  3  the graph has a cycle and --strict was given (the output is still written)
)";

int UsageError(std::ostream& err, const std::string& message) {
  err << "deps_viewer: error: " << message << "\n";
  return 2;
}

// The candidate closest to `given` when it is a plausible misspelling of it, else "".
std::string Closest(std::string_view given, const std::vector<std::string_view>& candidates) {
  return cli::ClosestName(std::string(given),
                          std::vector<std::string>(candidates.begin(), candidates.end()));
}

std::vector<std::string_view> Split(const char* list) {
  std::vector<std::string_view> parts;
  std::string_view rest = list;
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    parts.push_back(rest.substr(0, comma));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return parts;
}

// "a, b or c"
std::string OrList(const std::vector<std::string_view>& items) {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) text += i + 1 == items.size() ? " or " : ", ";
    text += items[i];
  }
  return text;
}

// The option a long name or unambiguous prefix of one names; nullptr with *error otherwise.
const OptionSpec* FindLong(std::string_view name, std::string* error) {
  std::vector<const OptionSpec*> matches;
  for (const OptionSpec& spec : kOptions) {
    if (spec.name == name) return &spec;
    if (spec.name.starts_with(name)) matches.push_back(&spec);
  }
  if (matches.size() == 1 && name.size() > 2) return matches[0];
  if (matches.size() > 1 && name.size() > 2) {
    std::vector<std::string_view> names;
    for (const OptionSpec* spec : matches) names.push_back(spec->name);
    *error = std::string(name) + " is ambiguous: it could be " + OrList(names);
    return nullptr;
  }
  std::vector<std::string_view> names;
  for (const OptionSpec& spec : kOptions) names.push_back(spec.name);
  std::string guess = Closest(name, names);
  *error =
      "unknown option " + std::string(name) +
      (guess.empty() ? "; deps_viewer --help lists the options" : "; did you mean " + guess + "?");
  return nullptr;
}

const OptionSpec* FindShort(char c) {
  for (const OptionSpec& spec : kOptions) {
    if (spec.short_name == c && c != 0) return &spec;
  }
  return nullptr;
}

// Checks `value` against the option's choices and stores it. False with *error otherwise.
bool Apply(const OptionSpec& spec, const std::string& value, ViewerOptions* options,
           std::string* error) {
  if (spec.choices != nullptr) {
    std::vector<std::string_view> choices = Split(spec.choices);
    if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
      std::string guess = Closest(value, choices);
      *error = std::string(spec.name) + " " + (value.empty() ? "\"\"" : value) + ": expected " +
               OrList(choices) + (guess.empty() ? "" : "; did you mean " + guess + "?");
      return false;
    }
  }
  if (spec.name == "--output") {
    if (value.empty()) {
      *error = "--output needs a file name";
      return false;
    }
    options->output = value;
  } else if (spec.name == "--format") {
    options->format = value;
  } else if (spec.name == "--edge-mode") {
    ParseEdgeMode(value, &options->edge_mode);
  } else if (spec.name == "--engine") {
    options->engine = value;
  } else if (spec.name == "--direction") {
    options->direction = value;
  } else if (spec.name == "--func-names") {
    options->func_names = value;
  } else if (spec.name == "--layout") {
    options->layout = value;
  } else if (spec.name == "--layout-timeout") {
    char* end = nullptr;
    double seconds = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !std::isfinite(seconds) || seconds <= 0) {
      *error = "--layout-timeout " + value + ": expected a positive number of seconds";
      return false;
    }
    options->layout_timeout = seconds;
  } else if (spec.name == "--threads") {
    char* end = nullptr;
    const unsigned long threads = std::strtoul(value.c_str(), &end, 10);
    if (value.empty() || value[0] < '0' || value[0] > '9' || *end != '\0' ||
        threads > kMaxThreads) {
      *error = "--threads " + value + ": expected a number of threads from 0 (every core) to " +
               std::to_string(kMaxThreads);
      return false;
    }
    options->threads = static_cast<unsigned>(threads);
  }
  return true;
}

void SetFlag(const OptionSpec& spec, ViewerOptions* options) {
  if (spec.name == "--show-tensor-info") options->show_tensor_info = true;
  if (spec.name == "--explain") options->explain = true;
  if (spec.name == "--strict") options->strict = true;
  if (spec.name == "--stats") options->stats = true;
  if (spec.name == "--dot-layout-form") options->dot_layout_form = true;
}

}  // namespace


int ParseViewerOptions(const std::vector<std::string>& args, ViewerOptions* options,
                       std::ostream& out, std::ostream& err) {
  std::vector<std::string> positionals;
  bool options_done = false;
  std::string error;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_done || arg.size() < 2 || arg[0] != '-') {
      positionals.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    const OptionSpec* spec = nullptr;
    std::string value;
    bool has_value = false;
    std::string spelled;  // the option as given, for messages
    if (arg[1] == '-') {
      size_t eq = arg.find('=');
      spelled = arg.substr(0, eq);
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
        has_value = true;
      }
      spec = FindLong(spelled, &error);
    } else {
      spelled = arg.substr(0, 2);
      spec = FindShort(arg[1]);
      if (spec == nullptr) {
        error = "unknown option " + spelled + "; deps_viewer --help lists the options";
      } else if (arg.size() > 2) {
        if (spec->value == nullptr) {
          error = "unknown option " + arg + "; deps_viewer --help lists the options";
          spec = nullptr;
        } else {
          value = arg.substr(2);
          has_value = true;
        }
      }
    }
    if (spec == nullptr) return UsageError(err, error);
    if (spec->name == "--help") {
      out << kHelp;
      return 0;
    }
    if (spec->name == "--version") {
      out << cli::VersionLine("deps_viewer") << "\n";
      return 0;
    }
    if (spec->value == nullptr) {
      if (has_value) return UsageError(err, std::string(spec->name) + " takes no value");
      SetFlag(*spec, options);
      continue;
    }
    if (!has_value) {
      if (i + 1 >= args.size() || (args[i + 1].size() > 1 && args[i + 1][0] == '-')) {
        std::string what = spec->choices ? "one of " + OrList(Split(spec->choices))
                                         : std::string("a ") + spec->value;
        return UsageError(err, std::string(spec->name) + " needs a value: " + what);
      }
      value = args[++i];
    }
    if (!Apply(*spec, value, options, &error)) return UsageError(err, error);
  }
  if (positionals.size() > 1) {
    return UsageError(err, "one input expected, got " + std::to_string(positionals.size()) + " (" +
                               positionals[0] + ", " + positionals[1] +
                               (positionals.size() > 2 ? ", ..." : "") + ")");
  }
  if (!positionals.empty()) options->input = positionals[0];

  // The reference tool rejects html-only options in text mode when spelled out in full
  // (abbreviations slip through); same check, same order, before the input is looked at.
  if (options->format == "text") {
    for (const char* option :
         {"--engine", "--direction", "--show-tensor-info", "--layout", "--layout-timeout"}) {
      for (const std::string& arg : args) {
        if (arg == option || arg.starts_with(std::string(option) + "=")) {
          err << "error: " << option << " is only valid with --format html\n";
          return 2;
        }
      }
    }
  }
  if (options->dot_layout_form && options->format != "dot") {
    err << "error: --dot-layout-form is only valid with --format dot\n";
    return 2;
  }
  return -1;
}

}  // namespace depgraph
