#include "depgraph/audit/diff_report.h"

#include <algorithm>

#include "depgraph/support/json_writer.h"

namespace depgraph {

namespace {

constexpr size_t kTextListLimit = 100;

void Flush(std::string& buf, std::ostream& out, bool force = false) {
  if (!force && buf.size() < (1u << 20)) return;
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  buf.clear();
}

bool SameIds(const DiffPair& d) { return d.a_pred == d.b_pred && d.a_succ == d.b_succ; }

}  // namespace

int DiffExitCode(const GraphDiff& diff) { return diff.orderings_lost.empty() ? 0 : 3; }

void WriteDiffText(const DiffReportInput& input, std::ostream& out) {
  const GraphDiff& d = input.diff;
  const IdDisplay rings_a = input.a.Display(), rings_b = input.b.Display();
  std::string buf;
  auto pair_text = [&](const DiffPair& p) {
    std::string text = FormatTaskId(p.a_pred, rings_a) + " -> " + FormatTaskId(p.a_succ, rings_a);
    if (!SameIds(p)) {
      text += " (B: " + FormatTaskId(p.b_pred, rings_b) + " -> " +
              FormatTaskId(p.b_succ, rings_b) + ")";
    }
    if (p.pred_is_alloc) text += " [from an allocation: lifetime only]";
    return text;
  };
  auto list = [&](const std::vector<DiffPair>& pairs, size_t limit, auto&& keep) {
    size_t shown = 0, skipped = 0;
    for (const DiffPair& p : pairs) {
      if (!keep(p)) continue;
      if (shown == limit) {
        ++skipped;
        continue;
      }
      buf += "  - " + pair_text(p) + "\n";
      ++shown;
      Flush(buf, out);
    }
    if (skipped > 0) buf += "  ... " + std::to_string(skipped) + " more (see --json)\n";
  };
  auto all = [](const DiffPair&) { return true; };

  buf += "depgraph diff: A = " + input.name_a + ", B = " + input.name_b + " (tasks matched by " +
         (input.options.by_order ? "submit order" : "id") + ")\n";
  buf += "tasks: A " + std::to_string(d.tasks_a) + ", B " + std::to_string(d.tasks_b) +
         ", matched " + std::to_string(d.matched) + "\n";
  if (d.task_sets_differ) {
    buf += "WARNING: the task sets differ: " + std::to_string(d.only_in_a.size()) +
           " task(s) only in A, " + std::to_string(d.only_in_b.size()) +
           " only in B; edges touching them are not compared" +
           (input.options.by_order ? std::string()
                                   : std::string(" (--by-order matches tasks by submit order)")) +
           "\n";
    for (const char* side : {"A", "B"}) {
      const std::vector<TaskId>& ids = side[0] == 'A' ? d.only_in_a : d.only_in_b;
      if (ids.empty()) continue;
      buf += std::string("  only in ") + side + ":";
      for (size_t i = 0; i < ids.size() && i < kTextListLimit; ++i) {
        buf += " " + FormatTaskId(ids[i], side[0] == 'A' ? rings_a : rings_b);
      }
      if (ids.size() > kTextListLimit) {
        buf += " ... " + std::to_string(ids.size() - kTextListLimit) + " more";
      }
      buf += "\n";
    }
  }
  buf += "edges: A " + std::to_string(d.pairs_a) + " pairs, B " + std::to_string(d.pairs_b) +
         " pairs; only in A " + std::to_string(d.edges_only_in_a.size()) + ", only in B " +
         std::to_string(d.edges_only_in_b.size()) + "; touching an unmatched task: A " +
         std::to_string(d.edges_unmatched_a) + ", B " + std::to_string(d.edges_unmatched_b) +
         "\n";
  const size_t lost_alloc = std::count_if(d.orderings_lost.begin(), d.orderings_lost.end(),
                                          [](const DiffPair& p) { return p.pred_is_alloc; });
  buf += "orderings lost (an A edge whose order B does not imply): " +
         std::to_string(d.orderings_lost.size()) +
         (lost_alloc > 0 ? " (" + std::to_string(lost_alloc) + " from allocations)" : "") + "\n";
  // With a gate, every finding is one verdict line under its section header.
  auto verdicts = [&](const char* rule_id) {
    for (const GateFinding& f : input.gate->findings) {
      if (input.gate->rules[f.rule].id != rule_id) continue;
      buf += VerdictLine(f) + "\n";
      Flush(buf, out);
    }
  };
  if (input.gate) {
    verdicts("DG201");
  } else {
    list(d.orderings_lost, SIZE_MAX, all);
  }
  buf += "orderings added (a B edge whose order A does not imply): " +
         std::to_string(d.orderings_added.size()) + "\n";
  if (input.gate) {
    verdicts("DG202");
  } else {
    list(d.orderings_added, SIZE_MAX, all);
  }
  // Only-in edges whose order the other graph still implies through a longer path.
  auto implied = [&](const std::vector<DiffPair>& only, const std::vector<DiffPair>& not_implied,
                     const char* title) {
    const size_t count = only.size() - not_implied.size();
    if (count == 0) return;
    buf += std::string(title) + std::to_string(count) + "\n";
    size_t shown = 0;
    ForEachImpliedEdge(only, not_implied, [&](const DiffPair& p) {
      if (shown++ == kTextListLimit) return false;
      buf += "  - " + pair_text(p) + "\n";
      Flush(buf, out);
      return true;
    });
    if (count > kTextListLimit) {
      buf += "  ... " + std::to_string(count - kTextListLimit) + " more (see --json)\n";
    }
  };
  if (input.gate) {
    const size_t count = d.edges_only_in_a.size() - d.orderings_lost.size() +
                         d.edges_only_in_b.size() - d.orderings_added.size();
    size_t shown = 0;
    for (const GateFinding& f : input.gate->findings) shown += f.level == GateLevel::kNote;
    if (count > 0) buf += "edges of one graph that the other implies through a path: " +
                          std::to_string(count) + "\n";
    verdicts("DG203");
    if (count > shown) {
      buf += "info: ... " + std::to_string(count - shown) + " more implied edges (see --json)\n";
    }
  } else {
    implied(d.edges_only_in_a, d.orderings_lost,
            "edges only in A that B implies through a path: ");
    implied(d.edges_only_in_b, d.orderings_added,
            "edges only in B that A implies through a path: ");
  }
  if (d.closure_computed) {
    buf += "closure (ordered pairs of matched tasks): A " + std::to_string(d.closure_a) +
           ", B " + std::to_string(d.closure_b) + "; lost " +
           std::to_string(d.closure_lost_count) + ", added " +
           std::to_string(d.closure_added_count) + "\n";
    if (!d.closure_lost.empty()) {
      buf += "closure pairs lost:\n";
      list(d.closure_lost, kTextListLimit, all);
    }
    if (!d.closure_added.empty()) {
      buf += "closure pairs added:\n";
      list(d.closure_added, kTextListLimit, all);
    }
  }
  const int code = input.gate ? input.gate->exit_code : DiffExitCode(d);
  if (input.gate) {
    for (const std::string& gap : input.gate->coverage_gaps) buf += "coverage gap: " + gap + "\n";
    buf += "summary: " + input.gate->summary + "\n";
  }
  // A verdict speaks only for the edges it compared: say how many when some could not be.
  const std::string scope =
      d.edges_unmatched_a == 0
          ? ""
          : " (of the " + std::to_string(d.pairs_a - d.edges_unmatched_a) + " of " +
                std::to_string(d.pairs_a) + " edges compared; " +
                std::to_string(d.edges_unmatched_a) + " touch a task B lacks)";
  // Under --warnings-as-errors or --strict the gate can fail while every ordering is kept.
  const std::string failed_anyway =
      code == 3 && d.orderings_lost.empty()
          ? std::string(", but the gate fails (") +
                (d.orderings_added.empty() ? "--strict: a coverage gap"
                                           : "--warnings-as-errors: edges added") +
                ")"
          : std::string();
  buf += "result: " +
         (!d.orderings_lost.empty()
              ? "B loses " + std::to_string(d.orderings_lost.size()) + " ordering(s) of A"
              : std::string("B keeps every ordering of A")) +
         scope + failed_anyway + ": exit " + std::to_string(code) + "\n";
  Flush(buf, out, true);
}

void WriteDiffJson(const DiffReportInput& input, std::ostream& out) {
  const GraphDiff& d = input.diff;
  std::string buf;
  auto num = [](uint64_t v) { return std::to_string(v); };
  auto pairs = [&](const char* key, const std::vector<DiffPair>& list, bool last = false) {
    buf += std::string("  \"") + key + "\": [";
    for (size_t i = 0; i < list.size(); ++i) {
      const DiffPair& p = list[i];
      buf += std::string(i ? "," : "") + "\n    {\"a\": [" + JsonId(p.a_pred) + ", " +
             JsonId(p.a_succ) + "], \"b\": [" + JsonId(p.b_pred) + ", " + JsonId(p.b_succ) +
             "], \"pred_is_alloc\": " + (p.pred_is_alloc ? "true" : "false") + "}";
      Flush(buf, out);
    }
    buf += std::string(list.empty() ? "" : "\n  ") + "]" + (last ? "\n" : ",\n");
  };
  auto ids = [&](const char* key, const std::vector<TaskId>& list) {
    buf += std::string("  \"") + key + "\": [";
    for (size_t i = 0; i < list.size(); ++i) {
      buf += std::string(i ? ", " : "") + JsonId(list[i]);
      Flush(buf, out);
    }
    buf += "],\n";
  };
  buf += "{\n  \"schema\": \"depgraph-diff/1\",\n  \"a\": " + JsonString(input.name_a) +
         ",\n  \"b\": " + JsonString(input.name_b) + ",\n  \"matched_by\": \"" +
         (input.options.by_order ? "order" : "id") + "\",\n";
  buf += "  \"tasks_a\": " + num(d.tasks_a) + ", \"tasks_b\": " + num(d.tasks_b) +
         ", \"matched\": " + num(d.matched) + ", \"task_sets_differ\": " +
         (d.task_sets_differ ? "true" : "false") + ",\n";
  ids("only_in_a", d.only_in_a);
  ids("only_in_b", d.only_in_b);
  buf += "  \"pairs_a\": " + num(d.pairs_a) + ", \"pairs_b\": " + num(d.pairs_b) +
         ", \"edges_unmatched_a\": " + num(d.edges_unmatched_a) + ", \"edges_unmatched_b\": " +
         num(d.edges_unmatched_b) + ",\n";
  pairs("edges_only_in_a", d.edges_only_in_a);
  pairs("edges_only_in_b", d.edges_only_in_b);
  pairs("orderings_lost", d.orderings_lost);
  pairs("orderings_added", d.orderings_added);
  if (d.closure_computed) {
    buf += "  \"closure\": {\"a\": " + num(d.closure_a) + ", \"b\": " + num(d.closure_b) +
           ", \"lost\": " + num(d.closure_lost_count) + ", \"added\": " +
           num(d.closure_added_count) + ", \"listed_limit\": " +
           num(input.options.max_closure_pairs) + "},\n";
    pairs("closure_lost", d.closure_lost);
    pairs("closure_added", d.closure_added);
  }
  if (input.gate) {
    buf += "  \"coverage_gaps\": [";
    for (size_t i = 0; i < input.gate->coverage_gaps.size(); ++i) {
      buf += std::string(i ? ", " : "") + JsonString(input.gate->coverage_gaps[i]);
    }
    buf += "],\n  \"summary\": " + JsonString(input.gate->summary) + ",\n";
  }
  buf += "  \"exit_code\": " +
         std::to_string(input.gate ? input.gate->exit_code : DiffExitCode(d)) + "\n}\n";
  Flush(buf, out, true);
}

}  // namespace depgraph
