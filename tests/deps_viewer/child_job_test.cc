// Work in a forked child: output and errors come back, crashes and hangs stay in the child.
#include "deps_viewer/child_job.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

namespace depgraph {
namespace {

// Crashes the calling process with `signal`, without leaving a core file behind.
[[noreturn]] void Crash(int signal) {
  rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  ::signal(signal, SIG_DFL);
  raise(signal);
  _exit(99);
}

TEST(ChildJobTest, ReturnsLargeOutputAndRelaysStderrLines) {
  std::vector<std::string> lines;
  ChildJobOptions options;
  options.on_line = [&lines](std::string_view line) { lines.emplace_back(line); };
  ChildJobResult result = RunChildJob(
      [](std::string* output, std::string*) {
        std::fprintf(stderr, "phase one\n\nphase two\r\npartial");
        std::fflush(stderr);
        output->assign(5 << 20, 'x');  // far more than a pipe holds
        output->back() = 'y';
        return true;
      },
      options);
  ASSERT_EQ(result.status, ChildJobStatus::kDone) << result.error;
  ASSERT_EQ(result.output.size(), 5u << 20);
  EXPECT_EQ(result.output.back(), 'y');
  EXPECT_EQ(lines, (std::vector<std::string>{"phase one", "phase two"}));
}

TEST(ChildJobTest, ReturnsTheWorksError) {
  ChildJobResult result = RunChildJob(
      [](std::string*, std::string* error) {
        *error = "Graphviz could not parse the generated DOT";
        return false;
      },
      {});
  EXPECT_EQ(result.status, ChildJobStatus::kFailed);
  EXPECT_EQ(result.error, "Graphviz could not parse the generated DOT");
  EXPECT_TRUE(result.output.empty());
}

TEST(ChildJobTest, ACrashEndsOnlyTheChild) {
  ChildJobResult result =
      RunChildJob([](std::string*, std::string*) -> bool { Crash(SIGSEGV); }, {});
  EXPECT_EQ(result.status, ChildJobStatus::kCrashed);
  EXPECT_EQ(result.signal, SIGSEGV);
  result = RunChildJob([](std::string*, std::string*) -> bool { Crash(SIGABRT); }, {});
  EXPECT_EQ(result.status, ChildJobStatus::kCrashed);
  EXPECT_EQ(result.signal, SIGABRT);
}

TEST(ChildJobTest, AnExitWithoutAResultIsAFailure) {
  ChildJobResult result = RunChildJob([](std::string*, std::string*) -> bool { _exit(4); }, {});
  EXPECT_EQ(result.status, ChildJobStatus::kFailed);
  EXPECT_EQ(result.error, "the child process ended with status 4 before sending its result");
}

TEST(ChildJobTest, TimeoutKillsTheChildAndTicksCountTheSeconds) {
  std::vector<double> ticks;
  ChildJobOptions options;
  options.timeout_seconds = 2.5;
  options.on_tick = [&ticks](double elapsed) { ticks.push_back(elapsed); };
  ChildJobResult result = RunChildJob(
      [](std::string*, std::string*) {
        sleep(60);
        return true;
      },
      options);
  EXPECT_EQ(result.status, ChildJobStatus::kTimedOut);
  EXPECT_GE(result.seconds, 2.5);
  EXPECT_LT(result.seconds, 20);
  // About one tick a second (a loaded machine may wake up late and skip one).
  ASSERT_GE(ticks.size(), 1u);
  EXPECT_LE(ticks.size(), 2u);
  for (size_t i = 0; i < ticks.size(); ++i) EXPECT_GE(ticks[i], static_cast<double>(i + 1));
}

}  // namespace
}  // namespace depgraph
