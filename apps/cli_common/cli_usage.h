// What every command-line tool of depgraph says about its own usage: the version line, and
// usage errors rewritten for people (the flag or subcommand they meant, arguments named as the
// help names them). Shared by the apps; the libraries never print.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace depgraph::cli {

/// "<tool> <version>" for --version (the project version from CMake). O(1).
std::string VersionLine(const std::string& tool);

/// The candidate nearest to `word` by edit distance when it is close enough to be a typo
/// (at most 2 edits, and fewer than the word has letters), else "". O(sum of |word| x |candidate|).
std::string ClosestName(const std::string& word, const std::vector<std::string>& candidates);

/// One line for a CLI11 parse error of `app` given `args` (argv without the program name):
/// an unknown subcommand or flag gets "(did you mean 'audit'?)", a missing positional is named
/// by its description rather than its internal name. O(options x args).
std::string DescribeParseError(CLI::App& app, const CLI::ParseError& error,
                               const std::vector<std::string>& args);

}  // namespace depgraph::cli
