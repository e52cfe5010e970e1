#include "wait_sim_command.h"

#include <algorithm>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <sstream>

#include "cli_inputs.h"
#include "depgraph/internal/message_quote.h"
#include "depgraph/support/atomic_file.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_writer.h"
#include "depgraph/timing/wait_reduction.h"

namespace depgraph {

namespace {

constexpr uint32_t kMaxWindow = 4096;

struct CaptureReport {
  std::string path;
  std::string runtime;
  WaitReductionReport report;
};

// 100 * part / whole with two decimals; "0.00" for an empty whole.
std::string Percent(uint64_t part, uint64_t whole, int decimals = 2) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals,
                whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

std::string Pad(const std::string& text, size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

void WriteText(const CaptureReport& c, std::ostream& out) {
  const WaitReductionReport& r = c.report;
  out << "== " << c.path << "\n";
  out << "tasks " << r.tasks;
  if (r.inserted) out << " (" << r.inserted << " allocation(s) placed before their first consumer)";
  out << ", " << r.wait_pairs << " WAIT pairs\n";
  out << "exact reduction (upper bound): " << r.upper_bound
      << " redundant: " << r.full_demote_to_retain << " demote to RETAIN, " << r.full_pure_drop
      << " drop";
  if (r.full_retain_uncertain) out << " (" << r.full_retain_uncertain << " retain uncertain)";
  out << "\n";
  out << "seq distance: p50 " << r.distance_p50 << ", p90 " << r.distance_p90 << ", p99 "
      << r.distance_p99 << ", max " << r.distance_max << "\n";
  out << "cross-scope (" << WaitScopeKeyName(r.scope_key) << "): " << r.cross_scope_wait_pairs
      << " WAIT pairs, " << r.cross_scope_redundant << " redundant\n";
  out << "    BL  removed  of bound  demote    drop  window misses  bitmap misses  "
         "cross-scope misses  in window\n";
  for (const WaitWindowStats& w : r.windows) {
    out << Pad(std::to_string(w.window), 6) << Pad(std::to_string(w.removed_pairs.size()), 9)
        << Pad(Percent(w.removed_pairs.size(), r.upper_bound) + "%", 10)
        << Pad(std::to_string(w.demote_to_retain), 8) << Pad(std::to_string(w.pure_drop), 8)
        << Pad(std::to_string(w.redundant_window_misses), 15)
        << Pad(std::to_string(w.bitmap_misses), 15) << Pad(std::to_string(w.cross_scope_misses), 20)
        << Pad(Percent(w.pairs_within_window, r.distance_count, 1) + "%", 11) << "\n";
  }
}

void Field(std::string* out, const char* indent, const char* name, const std::string& value,
           bool last = false) {
  *out += indent;
  AppendJsonString(out, name);
  *out += ": " + value + (last ? "\n" : ",\n");
}

void WriteJson(const std::vector<CaptureReport>& captures, std::ostream& stream) {
  std::string out = "{\n  \"schema\": \"depgraph-wait-sim/1\",\n  \"captures\": [";
  for (size_t i = 0; i < captures.size(); ++i) {
    const CaptureReport& c = captures[i];
    const WaitReductionReport& r = c.report;
    const char* in = "      ";
    out += i ? ",\n    {\n" : "\n    {\n";
    Field(&out, in, "file", JsonString(c.path));
    Field(&out, in, "runtime", c.runtime.empty() ? "null" : JsonString(c.runtime));
    Field(&out, in, "scope_key", JsonString(WaitScopeKeyName(r.scope_key)));
    Field(&out, in, "tasks", std::to_string(r.tasks));
    Field(&out, in, "inserted_allocations", std::to_string(r.inserted));
    Field(&out, in, "wait_pairs", std::to_string(r.wait_pairs));
    Field(&out, in, "full_reduction_upper_bound", std::to_string(r.upper_bound));
    Field(&out, in, "full_demote_to_retain", std::to_string(r.full_demote_to_retain));
    Field(&out, in, "full_pure_drop", std::to_string(r.full_pure_drop));
    Field(&out, in, "full_retain_classification_uncertain",
          std::to_string(r.full_retain_uncertain));
    Field(&out, in, "seq_distance",
          "{\"p50\": " + std::to_string(r.distance_p50) + ", \"p90\": " +
              std::to_string(r.distance_p90) + ", \"p99\": " + std::to_string(r.distance_p99) +
              ", \"max\": " + std::to_string(r.distance_max) + "}");
    Field(&out, in, "cross_scope_wait_pairs", std::to_string(r.cross_scope_wait_pairs));
    Field(&out, in, "cross_scope_redundant_wait_pairs", std::to_string(r.cross_scope_redundant));
    out += std::string(in) + "\"windows\": {";
    for (size_t k = 0; k < r.windows.size(); ++k) {
      const WaitWindowStats& w = r.windows[k];
      const char* wi = "          ";
      out += k ? ",\n        " : "\n        ";
      AppendJsonString(&out, std::to_string(w.window));
      out += ": {\n";
      Field(&out, wi, "removed", std::to_string(w.removed_pairs.size()));
      Field(&out, wi, "pct_of_upper_bound", Percent(w.removed_pairs.size(), r.upper_bound));
      Field(&out, wi, "demote_to_retain", std::to_string(w.demote_to_retain));
      Field(&out, wi, "pure_drop", std::to_string(w.pure_drop));
      Field(&out, wi, "retain_classification_uncertain", std::to_string(w.retain_uncertain));
      Field(&out, wi, "pairs_within_window", std::to_string(w.pairs_within_window));
      Field(&out, wi, "pct_pairs_within_window", Percent(w.pairs_within_window, r.distance_count));
      Field(&out, wi, "window_miss_wait_pairs", std::to_string(w.window_miss_pairs));
      Field(&out, wi, "redundant_window_misses", std::to_string(w.redundant_window_misses));
      Field(&out, wi, "bitmap_misses_within_window", std::to_string(w.bitmap_misses));
      Field(&out, wi, "cross_scope_removed", std::to_string(w.cross_scope_removed));
      Field(&out, wi, "cross_scope_misses", std::to_string(w.cross_scope_misses), true);
      out += "        }";
    }
    out += r.windows.empty() ? "}\n    }" : "\n      }\n    }";
  }
  out += captures.empty() ? "]\n}\n" : "\n  ]\n}\n";
  stream << out;
}

}  // namespace

bool ParseWindowList(const std::string& text, std::vector<uint32_t>* windows, std::string* err) {
  windows->clear();
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    uint64_t value = 0;
    bool ok = !item.empty() && item.size() <= 9;
    for (char ch : item) ok = ok && ch >= '0' && ch <= '9';
    if (ok) value = std::stoull(item);
    if (!ok || value == 0 || value > kMaxWindow) {
      *err = "--bl: expected bitmap lengths from 1 to " + std::to_string(kMaxWindow) +
             " separated by commas, got " + QuoteForMessage(item);
      return false;
    }
    // A length given twice is simulated once: it keys the JSON's "windows" object.
    if (std::find(windows->begin(), windows->end(), value) == windows->end()) {
      windows->push_back(static_cast<uint32_t>(value));
    }
  }
  if (windows->empty() || (!text.empty() && text.back() == ',')) {
    *err = "--bl: expected bitmap lengths from 1 to " + std::to_string(kMaxWindow) +
           " separated by commas, got " + QuoteForMessage(text);
    return false;
  }
  return true;
}

CLI::App* AddWaitSimCommand(CLI::App* app, WaitSimArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "wait-sim",
      "How many redundant WAIT edges the runtime's bounded reachability bitmap "
      "removes, per bitmap length, against the exact reduction of the WAIT graph. "
      "Exit 0: reported, 1: bad input.");
  cmd->add_option("deps_json", args->inputs, "deps.json capture(s)")->required();
  cmd->add_option("--bl", args->windows,
                  "comma-separated bitmap lengths to simulate (default 64,128,256)");
  cmd->add_option("--json", args->json,
                  "also write the report as JSON (schema depgraph-wait-sim/1) to this file, "
                  "atomically; '-' prints only the JSON on stdout");
  cmd->add_option("--threads", args->threads,
                  "threads that load and reduce the input (default 0: every core); results are "
                  "the same for any N")
      ->check(CLI::Range(0u, 1024u));
  return cmd;
}

int RunWaitSimCommand(const WaitSimArgs& args, std::ostream& out, std::ostream& err) {
  std::vector<uint32_t> windows;
  std::string error;
  if (!ParseWindowList(args.windows, &windows, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  const bool json_file = !args.json.empty() && args.json != "-";
  if (json_file && !CheckOutputIsNotAnInput(args.json, args.inputs, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  std::vector<CaptureReport> captures;
  for (const std::string& path : args.inputs) {
    DepGraph graph;
    if (!LoadGraphOrReport(path, &graph, err, args.threads, ViewUse::kSkip)) return 1;
    CaptureReport c;
    c.path = path;
    c.runtime = graph.runtime;
    if (!SimulateWaitReduction(graph, windows, &c.report, &error, args.threads)) {
      err << "error: " << path << ": " << error << "\n";
      return 1;
    }
    captures.push_back(std::move(c));
  }
  if (args.json == "-") {
    WriteJson(captures, out);
    return 0;
  }
  if (json_file) {
    AtomicFile file;
    if (!file.Open(args.json, &error)) {
      err << "error: " << error << "\n";
      return 1;
    }
    WriteJson(captures, file.stream());
    if (!file.Commit(&error)) {
      err << "error: " << error << "\n";
      return 1;
    }
  }
  for (size_t i = 0; i < captures.size(); ++i) {
    if (i) out << "\n";
    WriteText(captures[i], out);
  }
  if (json_file) out << "Wrote " << args.json << "\n";
  return 0;
}

}  // namespace depgraph
