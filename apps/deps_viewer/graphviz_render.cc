#include "graphviz_render.h"

#include <gvc.h>

#include <array>

// libgvc's verbosity switch (what `dot -v` sets); exported by libgvc, not declared in its
// public headers.
extern "C" {
extern unsigned char Verbose;
}

namespace depgraph {

namespace {

constexpr std::array<std::string_view, 6> kEngines = {"dot",   "neato", "sfdp",
                                                      "fdp",   "circo", "twopi"};

// Where the current render collects Graphviz messages.
thread_local std::string* g_message_sink = nullptr;

int CollectMessage(char* text) {
  if (g_message_sink != nullptr && text != nullptr) g_message_sink->append(text);
  return 0;
}

// Routes Graphviz's error/warning reports into `messages` for its lifetime and restores
// the previous hook afterwards.
class MessageCapture {
 public:
  explicit MessageCapture(std::string* messages) {
    g_message_sink = messages;
    previous_hook_ = agseterrf(&CollectMessage);
    previous_level_ = agseterr(AGWARN);
    agreseterrors();
  }
  ~MessageCapture() {
    agseterrf(previous_hook_);
    agseterr(previous_level_);
    g_message_sink = nullptr;
  }
  MessageCapture(const MessageCapture&) = delete;
  MessageCapture& operator=(const MessageCapture&) = delete;

 private:
  agusererrf previous_hook_;
  agerrlevel_t previous_level_;
};

// Trims trailing newlines and spaces.
std::string Trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) {
    text.pop_back();
  }
  return text;
}

// What Graphviz said as one line: its messages without their "Error: " prefixes, joined by
// "; " (a parse error alone is three lines: what, where, and the text that starts there).
std::string OneLine(const std::string& messages) {
  std::string line;
  size_t begin = 0;
  while (begin < messages.size()) {
    size_t end = messages.find('\n', begin);
    if (end == std::string::npos) end = messages.size();
    std::string part = Trimmed(messages.substr(begin, end - begin));
    begin = end + 1;
    if (part.starts_with("Error: ")) part.erase(0, 7);
    if (part.empty()) continue;
    if (!line.empty()) line += "; ";
    line += part;
  }
  return line;
}

// The failure message: `fallback`, then what Graphviz said, on one line.
std::string Failure(const std::string& messages, const std::string& fallback) {
  std::string text = OneLine(messages);
  return text.empty() ? fallback : fallback + ": " + text;
}

// The process's one Graphviz context, created on first use and never freed. libgvc 2.42's
// pango plugin remembers the last font it measured by a pointer into the context's font
// table, so a second context reads that freed name (a heap use-after-free inside libgvc that
// ASan reports on the second render). Null when Graphviz could not start.
GVC_t* ProcessContext() {
  static GVC_t* const context = gvContext();
  return context;
}

}  // namespace

bool IsLayoutEngine(std::string_view engine) {
  for (std::string_view known : kEngines) {
    if (engine == known) return true;
  }
  return false;
}

bool RenderSvgWithGraphviz(const std::string& dot, const std::string& engine, std::string* svg,
                           std::string* err, std::string* warnings) {
  svg->clear();
  if (!IsLayoutEngine(engine)) {
    *err = "unknown Graphviz layout engine '" + engine +
           "' (expected dot, neato, sfdp, fdp, circo or twopi)";
    return false;
  }
  std::string messages;
  MessageCapture capture(&messages);
  GVC_t* gvc = ProcessContext();
  if (gvc == nullptr) {
    *err = Failure(messages, "could not create a Graphviz context");
    return false;
  }
  bool ok = false;
  Agraph_t* graph = agmemread(dot.c_str());
  if (graph == nullptr) {
    *err = Failure(messages, "Graphviz could not parse the generated DOT");
  } else {
    if (gvLayout(gvc, graph, engine.c_str()) != 0) {
      *err = Failure(messages, "Graphviz layout with engine '" + engine + "' failed");
    } else {
      char* data = nullptr;
      unsigned int length = 0;
      if (gvRenderData(gvc, graph, "svg", &data, &length) != 0 || data == nullptr) {
        *err = Failure(messages, "Graphviz could not render SVG");
      } else {
        svg->assign(data, length);
        ok = true;
      }
      if (data != nullptr) gvFreeRenderData(data);
    }
    gvFreeLayout(gvc, graph);
    agclose(graph);
  }
  if (ok && warnings != nullptr) *warnings = Trimmed(messages);
  return ok;
}

void SetGraphvizVerbose(bool verbose) { Verbose = verbose ? 1 : 0; }

}  // namespace depgraph
