// In-process Graphviz layout: DOT text in, SVG text out, through the gvc/cgraph C library.
#pragma once

#include <string>
#include <string_view>

namespace depgraph {

/// Whether `engine` is a layout engine deps_viewer offers: dot, neato, sfdp, fdp, circo or
/// twopi. O(1).
bool IsLayoutEngine(std::string_view engine);

/// Lays out `dot` with `engine` and renders it as SVG into *svg, without any subprocess.
///
/// Graphviz diagnostics are captured instead of going to stderr: warnings (e.g. an unknown
/// port) are appended to *warnings when it is non-null; on failure (unknown or unavailable
/// engine, DOT syntax error, layout error) returns false with a one-line reason in *err
/// (Graphviz's messages joined by "; "). Every call uses the process's one Graphviz context,
/// created by the first call and kept until exit (libgvc 2.42 reads freed memory when a
/// second context lays out text after a first one was freed). Not thread-safe: Graphviz keeps
/// its error hook and some layout state in globals. Cost: that of the engine (dot is
/// superlinear; sfdp scales to large graphs) plus O(|svg|) memory; the first call also loads
/// the plugins (tens of ms).
bool RenderSvgWithGraphviz(const std::string& dot, const std::string& engine, std::string* svg,
                           std::string* err, std::string* warnings = nullptr);

/// Makes Graphviz describe each layout phase on stderr as it goes (its `-v` output: network
/// simplex iterations, crossing-minimisation passes, spline routing), or stop doing so. Meant
/// for a child process whose stderr the parent reads as progress (graphviz_job.h). O(1).
void SetGraphvizVerbose(bool verbose);

}  // namespace depgraph
