#include "loaded_graph.h"

#include <sstream>

#include "cli_inputs.h"
#include "depgraph/graph/load_deps.h"

namespace depgraph::python {

namespace {

// The one line a tools' `error: ...` message carries, without the prefix and the newline.
std::string ErrorLine(const std::string& printed) {
  std::string line = printed;
  while (!line.empty() && line.back() == '\n') line.pop_back();
  const std::string prefix = "error: ";
  if (line.compare(0, prefix.size(), prefix) == 0) line.erase(0, prefix.size());
  return line;
}

}  // namespace

std::shared_ptr<LoadedGraph> LoadedGraph::Load(const std::string& path, const std::string& name_map,
                                               unsigned threads, bool views) {
  std::shared_ptr<LoadedGraph> loaded(new LoadedGraph());
  loaded->source_ = path;
  loaded->threads_ = threads;
  // The same helpers as `depgraph audit` and `query`, so the messages are theirs.
  std::ostringstream messages;
  if (!LoadGraphOrReport(path, &loaded->graph_, messages, threads,
                         views ? ViewUse::kRead : ViewUse::kSkip)) {
    throw Error(ErrorLine(messages.str()));
  }
  loaded->names_path_ = NamesPathFor(path, name_map);
  if (!LoadNamesOrReport(path, name_map, &loaded->names_, messages)) {
    throw Error(ErrorLine(messages.str()));
  }
  loaded->warning_ = messages.str();
  while (!loaded->warning_.empty() && loaded->warning_.back() == '\n') loaded->warning_.pop_back();
  if (!loaded->warning_.empty()) loaded->names_path_.clear();  // unreadable: no names used
  loaded->display_ = loaded->graph_.Display();
  return loaded;
}

void LoadedGraph::RequireViews(const char* what) const {
  if (graph_.views_loaded) return;
  throw Error(source_ + ": " + what + " reads tensor views (dtype, shape, strides, offset), and "
              "this graph was loaded with views=False: load it with views=True");
}

const std::vector<TaskLabel>& LoadedGraph::Labels() {
  std::call_once(labels_once_, [this] { labels_ = ResolveTaskLabels(graph_, names_); });
  return labels_;
}

const StructuralReduction& LoadedGraph::Reduction() {
  std::call_once(reduction_once_, [this] { reduction_ = ReduceStructurally(graph_, threads_); });
  return reduction_;
}

std::string LoadedGraph::NodeName(uint32_t node) {
  const TaskLabel& label = Labels()[node];
  if (!label.func_name.empty()) return label.func_name;
  return TaskKindName(label.kind);
}

QueryTask LoadedGraph::Resolve(TaskId id, const std::string& text) const {
  QueryTask task;
  if (!FindQueryTask(graph_, id, &task)) {
    throw Error(source_ + ": no task " + text + " (id " + std::to_string(id) + ")");
  }
  return task;
}

}  // namespace depgraph::python
