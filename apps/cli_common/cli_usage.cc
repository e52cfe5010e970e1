#include "cli_usage.h"

#include <algorithm>

namespace depgraph::cli {
namespace {

/// Levenshtein distance. O(|a| x |b|).
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

/// Every long and short flag of `app` ("--output", "-o").
std::vector<std::string> FlagNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

/// The subcommand that parsed, or `app` itself.
CLI::App& Innermost(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands()) return Innermost(*sub);
  return app;
}

}  // namespace

std::string VersionLine(const std::string& tool) { return tool + " " DEPGRAPH_VERSION; }

std::string ClosestName(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = 3;
  for (const std::string& c : candidates) {
    const size_t d = EditDistance(word, c);
    if (d < best_distance && d < word.size()) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string DescribeParseError(CLI::App& app, const CLI::ParseError& error,
                               const std::vector<std::string>& args) {
  CLI::App& inner = Innermost(app);
  const std::string prefix = inner.get_parent() ? inner.get_name() + ": " : "";
  // An unknown subcommand: CLI11 only says that one is required.
  if (!app.get_subcommands({}).empty() && app.get_subcommands().empty()) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    for (const std::string& arg : args) {
      if (arg.empty() || arg[0] == '-') continue;
      const std::string meant = ClosestName(arg, names);
      return "unknown subcommand '" + arg + "'" +
             (meant.empty() ? "" : " (did you mean '" + meant + "'?)");
    }
    return "a subcommand is required";
  }
  // An unknown flag: suggest the nearest one of the subcommand that parsed.
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    const std::vector<std::string> flags = FlagNames(inner);
    for (const std::string& extra : inner.remaining()) {
      if (extra.empty() || extra[0] != '-') continue;
      const std::string name = extra.substr(0, extra.find('='));
      const std::string meant = ClosestName(name, flags);
      return prefix + "unknown option '" + name + "'" +
             (meant.empty() ? "" : " (did you mean '" + meant + "'?)");
    }
    for (const std::string& extra : inner.remaining()) {
      return prefix + "unexpected argument '" + extra + "'";
    }
  }
  // A missing positional: CLI11 names it by its internal name ("deps_json is required").
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    const std::string what = error.what();
    for (const CLI::Option* opt : inner.get_options()) {
      if (!opt->get_positional() || what.rfind(opt->get_name() + " is required", 0) != 0) continue;
      return prefix + "missing argument: " + opt->get_description();
    }
  }
  return prefix + error.what();
}

}  // namespace depgraph::cli
