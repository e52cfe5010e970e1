// Golden replay of `depgraph critical-path` against the reference critical_path.py
// (data/timing/<case>/, spec/timing.md §6): every case directory found there is copied without
// expected/ to a scratch directory of the same name, given its mtimes, run with its arguments,
// and its stdout, stderr, exit status and every created or changed file compared byte for byte.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_util.h"

namespace depgraph {
namespace {

namespace fs = std::filesystem;

fs::path CasesDir() { return fs::path(testing::SourceDir()) / "data" / "timing"; }

/// Every directory of data/timing with an args.json, sorted.
std::vector<std::string> AllCases() {
  std::vector<std::string> cases;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(CasesDir(), ec)) {
    if (fs::exists(entry.path() / "args.json")) cases.push_back(entry.path().filename().string());
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

/// Path (relative to `root`, '/'-separated) -> content of every regular file under `root`.
std::map<std::string, std::string> Snapshot(const fs::path& root) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) {
      files[entry.path().lexically_relative(root).generic_string()] =
          testing::ReadFile(entry.path().string());
    }
  }
  return files;
}

std::string ShellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

/// Sets the modification (and access) time of `path` to `seconds` since the epoch.
void SetMtime(const fs::path& path, double seconds) {
  const double whole = std::floor(seconds);
  timespec times[2];
  times[0].tv_sec = times[1].tv_sec = static_cast<time_t>(whole);
  times[0].tv_nsec = times[1].tv_nsec = static_cast<long>(std::llround((seconds - whole) * 1e9));
  ASSERT_EQ(utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

/// Applies mtimes.json: keys are paths relative to the case root, or bare file names (then
/// every file of that name under the root).
void ApplyMtimes(const fs::path& source, const fs::path& root) {
  const fs::path file = source / "mtimes.json";
  if (!fs::exists(file)) return;
  const nlohmann::json mtimes = nlohmann::json::parse(testing::ReadFile(file.string()));
  for (const auto& [key, value] : mtimes.items()) {
    if (fs::exists(root / key)) {
      SetMtime(root / key, value.get<double>());
      continue;
    }
    bool found = false;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (entry.path().filename() == key) {
        SetMtime(entry.path(), value.get<double>());
        found = true;
      }
    }
    EXPECT_TRUE(found) << "mtimes.json names " << key << ", which is not in the case";
  }
}

/// Stderr compared as spec/timing.md §6 allows: the wording of a JSON syntax error after
/// `error: invalid merged_swimlane*.json in <dir>: ` is the parser's own.
void ExpectSameStderr(const std::string& actual, const std::string& expected) {
  const std::string marker = "error: invalid merged_swimlane*.json in ";
  std::vector<std::string> a, e;
  for (const auto* text : {&actual, &expected}) {
    std::vector<std::string>& lines = text == &actual ? a : e;
    size_t start = 0;
    for (size_t nl; (nl = text->find('\n', start)) != std::string::npos; start = nl + 1) {
      lines.push_back(text->substr(start, nl - start));
    }
    if (start < text->size()) lines.push_back(text->substr(start));
  }
  ASSERT_EQ(a.size(), e.size()) << "stderr:\n" << actual << "expected:\n" << expected;
  for (size_t i = 0; i < e.size(); ++i) {
    const size_t dir_end = e[i].rfind(": ");
    const bool own_wording = e[i].rfind(marker, 0) == 0 && dir_end != std::string::npos &&
                             e[i].find("merged swimlane JSON must contain") == std::string::npos &&
                             e[i].find("merged Worker View is missing") == std::string::npos;
    if (own_wording) {
      // Only the directory part is pinned; the parser's message may differ.
      const size_t prefix = e[i].find(": ", marker.size());
      EXPECT_EQ(a[i].substr(0, prefix + 2), e[i].substr(0, prefix + 2));
    } else {
      EXPECT_EQ(a[i], e[i]);
    }
  }
}

class CriticalPathGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(CriticalPathGolden, MatchesReferenceByteForByte) {
  const fs::path source = CasesDir() / GetParam();
  const fs::path expected = source / "expected";
  testing::TempDir scratch;
  const fs::path root = fs::canonical(scratch.path()) / GetParam();
  fs::create_directory(root);
  for (const auto& entry : fs::directory_iterator(source)) {
    if (entry.path().filename() == "expected") continue;
    fs::copy(entry.path(), root / entry.path().filename(), fs::copy_options::recursive);
  }
  for (const auto& entry : fs::recursive_directory_iterator(root)) {  // copies of read-only data
    fs::permissions(entry.path(), fs::perms::owner_read | fs::perms::owner_write,
                    fs::perm_options::add);
  }
  ApplyMtimes(source, root);
  const std::map<std::string, std::string> before = Snapshot(root);

  const nlohmann::json args =
      nlohmann::json::parse(testing::ReadFile((source / "args.json").string()));
  std::string command = testing::BoundedCommand(testing::CliBinary()) + " critical-path";
  for (const auto& arg : args) {
    command += " " + ShellQuote(ReplaceAll(arg.get<std::string>(), "{ROOT}", root.string()));
  }
  const testing::CommandResult run = testing::RunCommand(command, scratch.path());
  const std::string out = ReplaceAll(run.out, root.string(), "{ROOT}");
  const std::string err = ReplaceAll(run.err, root.string(), "{ROOT}");
  const std::string expected_err = testing::ReadFile((expected / "stderr").string());
  const int expected_rc = std::stoi(testing::ReadFile((expected / "rc").string()));

  EXPECT_EQ(run.exit_code, expected_rc) << err;
  EXPECT_EQ(out, testing::ReadFile((expected / "stdout").string()));
  if (expected_err.rfind("usage:", 0) == 0 || expected_err.find("Traceback") != std::string::npos) {
    // argparse's usage text and Python tracebacks are not part of the contract (spec §6).
    EXPECT_FALSE(err.empty());
  } else {
    ExpectSameStderr(err, expected_err);
  }

  // Every created or changed file, and nothing else.
  std::map<std::string, std::string> changed;
  for (const auto& [path, content] : Snapshot(root)) {
    auto it = before.find(path);
    if (it == before.end() || it->second != content) changed[path] = content;
  }
  std::map<std::string, std::string> wanted;
  if (fs::exists(expected / "files")) wanted = Snapshot(expected / "files");
  std::vector<std::string> changed_names, wanted_names;
  for (const auto& entry : changed) changed_names.push_back(entry.first);
  for (const auto& entry : wanted) wanted_names.push_back(entry.first);
  EXPECT_EQ(changed_names, wanted_names);
  for (const auto& [path, content] : wanted) {
    auto it = changed.find(path);
    if (it != changed.end()) {
      EXPECT_TRUE(it->second == content) << path << " differs";
    }
  }
  // No other entry (directory, temporary file) was left behind.
  size_t entries_before = 0, entries_after = 0;
  for (const auto& entry : fs::recursive_directory_iterator(source)) {
    if (entry.path().lexically_relative(source).begin()->string() != "expected") ++entries_before;
  }
  for ([[maybe_unused]] const auto& entry : fs::recursive_directory_iterator(root)) ++entries_after;
  const size_t created =
      wanted.size() - std::count_if(wanted.begin(), wanted.end(),
                                    [&](const auto& w) { return before.count(w.first) != 0; });
  EXPECT_EQ(entries_after, entries_before + created);
}

std::string CaseName(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(TimingCases, CriticalPathGolden, ::testing::ValuesIn(AllCases()),
                         CaseName);

TEST(CriticalPathGoldenCorpus, EveryShippedCaseIsReplayed) {
  // The cases are discovered, not listed; this guards against finding none (a wrong path).
  EXPECT_GE(AllCases().size(), 11u);
}

}  // namespace
}  // namespace depgraph
