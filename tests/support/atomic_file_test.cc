#include "depgraph/support/atomic_file.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <vector>

#include "test_util.h"

namespace depgraph {
namespace {

size_t EntryCount(const std::string& dir) {
  size_t n = 0;
  for (auto it = std::filesystem::directory_iterator(dir);
       it != std::filesystem::directory_iterator(); ++it)
    ++n;
  return n;
}

TEST(AtomicFile, CommitReplacesTheTarget) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("out.txt"), "old");
  AtomicFile file;
  std::string err;
  ASSERT_TRUE(file.Open(dir.File("out.txt"), &err)) << err;
  file.stream() << "new";
  EXPECT_EQ(testing::ReadFile(dir.File("out.txt")), "old");  // untouched until commit
  ASSERT_TRUE(file.Commit(&err)) << err;
  EXPECT_EQ(testing::ReadFile(dir.File("out.txt")), "new");
  EXPECT_EQ(EntryCount(dir.path()), 1u);
}

TEST(AtomicFile, AbandonedWriteLeavesNothing) {
  testing::TempDir dir;
  {
    AtomicFile file;
    std::string err;
    ASSERT_TRUE(file.Open(dir.File("out.txt"), &err));
    file.stream() << "partial";
  }
  EXPECT_EQ(EntryCount(dir.path()), 0u);
}

TEST(AtomicFile, UnwritablePlacesFailWithAMessage) {
  AtomicFile file;
  std::string err;
  EXPECT_FALSE(file.Open("/nonexistent/dir/out.txt", &err));
  EXPECT_NE(err.find("/nonexistent/dir/out.txt"), std::string::npos);
  testing::TempDir dir;
  AtomicFile onto_dir;
  EXPECT_FALSE(onto_dir.Open(dir.path(), &err));
  EXPECT_EQ(err, dir.path() + ": is a directory");
}

// Issue 26: two traces committed together are both renamed, each on a thread of its own; when
// one cannot be committed, neither is (every file is checked before any is renamed).
TEST(AtomicFile, CommitTogetherRenamesAllOrNone) {
  testing::TempDir dir;
  {
    AtomicFile a, b;
    std::string err;
    ASSERT_TRUE(a.Open(dir.File("a.json"), &err) && b.Open(dir.File("b.json"), &err)) << err;
    a.stream() << "A";
    b.stream() << "B";
    ASSERT_TRUE(AtomicFile::CommitTogether({&a, &b}, &err)) << err;
  }
  EXPECT_EQ(testing::ReadFile(dir.File("a.json")), "A");
  EXPECT_EQ(testing::ReadFile(dir.File("b.json")), "B");
  EXPECT_EQ(EntryCount(dir.path()), 2u);
  {
    AtomicFile a, b;
    std::string err;
    ASSERT_TRUE(a.Open(dir.File("a.json"), &err) && b.Open(dir.File("c.json"), &err)) << err;
    a.stream() << "A2";
    b.stream() << "C";
    testing::MakeFifo(dir.File("c.json"));  // b's target can no longer be replaced
    EXPECT_FALSE(AtomicFile::CommitTogether({&a, &b}, &err));
    EXPECT_EQ(err, dir.File("c.json") + ": is a FIFO, not a regular file; refusing to replace it");
  }
  EXPECT_EQ(testing::ReadFile(dir.File("a.json")), "A");  // not renamed either
  EXPECT_EQ(EntryCount(dir.path()), 3u);                  // a, b and the FIFO; no temporaries
}

// Issue 26: a large file being replaced has its cached pages dropped by the writer at the start
// (its data stays), so that the rename at the end does not evict them. Checked with mincore on
// a second link to the replaced file.
TEST(AtomicFile, ALargeReplacedFileLeavesThePageCacheEarly) {
  testing::TempDir dir;
  const std::string path = dir.File("trace.json"), kept = dir.File("kept.json");
  const std::string content(size_t{64} << 20, 'x');
  testing::WriteFile(path, content);
  {  // written back, as an input made by an earlier run is: dirty pages cannot be dropped
    const int fd = open(path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(fsync(fd), 0);
    close(fd);
  }
  ASSERT_EQ(link(path.c_str(), kept.c_str()), 0);
  const auto resident_pages = [&] {
    const int fd = open(kept.c_str(), O_RDONLY);
    void* map = mmap(nullptr, content.size(), PROT_READ, MAP_SHARED, fd, 0);
    const size_t pages = content.size() / 4096;
    std::vector<unsigned char> residency(pages);
    mincore(map, content.size(), residency.data());
    munmap(map, content.size());
    close(fd);
    size_t resident = 0;
    for (unsigned char page : residency) resident += page & 1;
    return resident;
  };
  EXPECT_EQ(testing::ReadFile(kept).size(), content.size());  // now cached
  const size_t before = resident_pages();
  struct statfs fs;
  ASSERT_EQ(statfs(dir.path().c_str(), &fs), 0);
  if (before == 0 || fs.f_type == TMPFS_MAGIC) {
    GTEST_SKIP() << "the temporary directory's file system has no page cache to drop";
  }
  AtomicFile file;
  std::string err;
  ASSERT_TRUE(file.Open(path, &err)) << err;
  file.stream() << "new";
  ASSERT_TRUE(file.Commit(&err)) << err;  // the writer is done: it dropped them first
  EXPECT_LT(resident_pages(), before / 10) << "of " << before;
  EXPECT_EQ(testing::ReadFile(kept), content);  // the data stays
  EXPECT_EQ(testing::ReadFile(path), "new");
}

bool IsFifo(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

TEST(AtomicFile, RefusesToReplaceAFifo) {
  testing::TempDir dir;
  const std::string fifo = dir.File("out.html");
  testing::MakeFifo(fifo);
  AtomicFile file;
  std::string err;
  EXPECT_FALSE(file.Open(fifo, &err));
  EXPECT_EQ(err, fifo + ": is a FIFO, not a regular file; refusing to replace it");
  EXPECT_TRUE(IsFifo(fifo));
  EXPECT_EQ(EntryCount(dir.path()), 1u);  // no temporary file either
}

TEST(AtomicFile, RefusesToReplaceASymlinkEvenToARegularFile) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("target.txt"), "keep");
  std::filesystem::create_symlink("target.txt", dir.File("out.txt"));
  AtomicFile file;
  std::string err;
  EXPECT_FALSE(file.Open(dir.File("out.txt"), &err));
  EXPECT_EQ(err,
            dir.File("out.txt") + ": is a symlink, not a regular file; refusing to replace it");
  EXPECT_TRUE(std::filesystem::is_symlink(dir.File("out.txt")));
  EXPECT_EQ(testing::ReadFile(dir.File("target.txt")), "keep");
  EXPECT_EQ(EntryCount(dir.path()), 2u);
}

TEST(AtomicFile, RefusesToReplaceACharacterDevice) {
  // Open only: nothing is ever committed over /dev/zero, whatever the code under test does.
  AtomicFile file;
  std::string err;
  EXPECT_FALSE(file.Open("/dev/zero", &err));
  EXPECT_EQ(err, "/dev/zero: is a character device, not a regular file; refusing to replace it");
}

TEST(AtomicFile, CommitRefusesAFifoThatAppearedMeanwhile) {
  testing::TempDir dir;
  const std::string path = dir.File("out.txt");
  {
    AtomicFile file;
    std::string err;
    ASSERT_TRUE(file.Open(path, &err)) << err;
    file.stream() << "new";
    testing::MakeFifo(path);
    EXPECT_FALSE(file.Commit(&err));
    EXPECT_EQ(err, path + ": is a FIFO, not a regular file; refusing to replace it");
  }
  EXPECT_TRUE(IsFifo(path));
  EXPECT_EQ(EntryCount(dir.path()), 1u);
}

// Forks a child that opens an AtomicFile in `dir`, writes, and raises `sig`; returns the
// child's wait status.
int StatusOfChildKilledWhileWriting(const std::string& dir, int sig) {
  const pid_t pid = fork();
  if (pid == 0) {
    AtomicFile file;
    std::string err;
    if (!file.Open(dir + "/out.html", &err)) _exit(2);
    file.stream() << "partial" << std::flush;
    if (access(file.temp_path().c_str(), F_OK) != 0) _exit(3);
    raise(sig);
    _exit(4);  // not reached: the signal ends the process
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

TEST(AtomicFile, InterruptionRemovesTheTemporaryFile) {
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    struct sigaction current;
    sigaction(sig, nullptr, &current);
    if (current.sa_handler == SIG_IGN) continue;  // ignored by whoever started the tests (nohup)
    testing::TempDir dir;
    const int status = StatusOfChildKilledWhileWriting(dir.path(), sig);
    // The signal is re-raised with its default action: the child still dies of it.
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << sig << ": exit " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_EQ(EntryCount(dir.path()), 0u) << "signal " << sig << " left the temporary file";
  }
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

// Issue 25 item 5: leftovers of dead writers (SIGKILL) are removed by the next write of the same
// output; a live writer's, another output's and recent old-form temporaries are kept; the
// content goes through mkstemp's descriptor (a name swapped in after Open is not written).
TEST(AtomicFileRound3, StaleTemporariesOfDeadWritersAreRemoved) {
  testing::TempDir dir;
  // A pid that is surely dead: a child that has exited and been reaped.
  const pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  waitpid(child, nullptr, 0);
  const std::string dead = dir.File("out.json.tmp." + std::to_string(child) + ".AbC123");
  const std::string live = dir.File("out.json.tmp." + std::to_string(getppid()) + ".XyZ789");
  const std::string old_form = dir.File("out.json.tmp.Qw3rTy");
  const std::string recent_old_form = dir.File("out.json.tmp.Zx9vBn");
  const std::string other = dir.File("other.json.tmp." + std::to_string(child) + ".AbC123");
  for (const std::string& p : {dead, live, old_form, recent_old_form, other}) {
    testing::WriteFile(p, "partial");
  }
  const timespec two_hours_ago[2] = {{time(nullptr) - 7200, 0}, {time(nullptr) - 7200, 0}};
  ASSERT_EQ(utimensat(AT_FDCWD, old_form.c_str(), two_hours_ago, 0), 0);

  const mode_t mask = umask(022);
  AtomicFile file;
  std::string err;
  ASSERT_TRUE(file.Open(dir.File("out.json"), &err)) << err;
  EXPECT_FALSE(std::filesystem::exists(dead));
  EXPECT_FALSE(std::filesystem::exists(old_form));
  EXPECT_TRUE(std::filesystem::exists(live));
  EXPECT_TRUE(std::filesystem::exists(recent_old_form));
  EXPECT_TRUE(std::filesystem::exists(other));
  EXPECT_NE(file.temp_path().find(".tmp." + std::to_string(getpid()) + "."), std::string::npos)
      << file.temp_path();
  // Swap the temporary name for another file: the content still goes to the created file.
  const std::string temp = file.temp_path();
  ASSERT_EQ(std::rename(temp.c_str(), dir.File("moved").c_str()), 0);
  testing::WriteFile(temp, "decoy");
  file.stream() << "content";
  std::string commit_err;
  file.Commit(&commit_err);  // the renamed-away name now holds the decoy
  EXPECT_EQ(testing::ReadFile(dir.File("moved")), "content");
  struct stat st;
  ASSERT_EQ(stat(dir.File("moved").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  umask(mask);

  // An ordinary write leaves only the output.
  AtomicFile again;
  ASSERT_TRUE(again.Open(dir.File("fresh.json"), &err)) << err;
  again.stream() << "x";
  ASSERT_TRUE(again.Commit(&err)) << err;
  EXPECT_EQ(testing::ReadFile(dir.File("fresh.json")), "x");
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().filename().string().rfind("fresh.json.tmp.", 0), std::string::npos);
  }
}

}  // namespace
}  // namespace depgraph
