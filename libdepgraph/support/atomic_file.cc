#include "depgraph/support/atomic_file.h"

#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

#include "background_file_buf.h"
#include "depgraph/support/input_file.h"

namespace depgraph {

namespace {

// The registry of live temporary files, read by the signal handler. Fixed storage, so that
// the handler touches no heap: a slot is free (0), being filled (1) or live (2).
constexpr int kSlotCount = 16;
constexpr int kFree = 0, kFilling = 1, kLive = 2;

struct TempSlot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};

TempSlot g_slots[kSlotCount];

// The signals that remove the temporary files, and their dispositions before ours.
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr int kSignalCount = sizeof(kSignals) / sizeof(kSignals[0]);
struct sigaction g_previous[kSignalCount];

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");

// Async-signal-safe: unlink, sigaction and raise only.
void RemoveTempFilesAndReraise(int sig) {
  const int saved_errno = errno;
  for (TempSlot& slot : g_slots) {
    if (slot.state.load() == kLive) unlink(slot.path);
  }
  for (int i = 0; i < kSignalCount; ++i) {
    if (kSignals[i] != sig) continue;
    sigaction(sig, &g_previous[i], nullptr);
    raise(sig);  // blocked until this handler returns, then delivered with the old disposition
  }
  errno = saved_errno;
}

void InstallSignalHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int i = 0; i < kSignalCount; ++i) {
      if (sigaction(kSignals[i], nullptr, &g_previous[i]) != 0) continue;
      // An ignored signal (nohup, a background job) stays ignored.
      if (!(g_previous[i].sa_flags & SA_SIGINFO) && g_previous[i].sa_handler == SIG_IGN) continue;
      struct sigaction action;
      std::memset(&action, 0, sizeof(action));
      action.sa_handler = RemoveTempFilesAndReraise;
      sigemptyset(&action.sa_mask);
      sigaction(kSignals[i], &action, nullptr);
    }
  });
}

// Claims a slot for `path`; -1 when none is free or the path does not fit (then the file is
// still removed on every ordinary exit path, only not on a signal).
int RegisterTempFile(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kSlotCount; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(kLive);
    return i;
  }
  return -1;
}

void UnregisterTempFile(int slot) {
  if (slot >= 0) g_slots[slot].state.store(kFree);
}

// Blocks the cleanup signals for its lifetime, so that no signal lands between creating a
// temporary file and registering it.
class SignalBlock {
 public:
  SignalBlock() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kSignals) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~SignalBlock() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  SignalBlock(const SignalBlock&) = delete;
  SignalBlock& operator=(const SignalBlock&) = delete;

 private:
  sigset_t old_;
};

// Refuses to replace anything at `path` but a regular file (or nothing). lstat: a symlink is
// refused as such, never followed.
bool CheckReplaceable(const std::string& path, std::string* err) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return true;  // absent is fine
  if (S_ISDIR(st.st_mode)) {
    *err = path + ": is a directory";
  } else {
    *err = path + ": is " + NonRegularFileKind(st.st_mode) +
           ", not a regular file; refusing to replace it";
  }
  return false;
}

// Temporary files are named <output><kTempInfix><pid>.<6 random characters>.
constexpr const char* kTempInfix = ".tmp.";
// A leftover in the older form <output>.tmp.<6 characters> (no pid) is stale after this long.
constexpr time_t kStaleSeconds = 3600;

// Removes the temporary files of `path` that dead writers left beside it (a SIGKILL leaves them):
// regular files named <path>.tmp.<pid>.XXXXXX whose pid is no live process, and, of the older
// form <path>.tmp.XXXXXX, those older than kStaleSeconds. Best effort, errors are ignored.
// O(entries of the directory).
void RemoveStaleTemporaries(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const std::string prefix = target.filename().string() + kTempInfix;
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return;
  const time_t now = time(nullptr);
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    struct stat st;
    if (lstat(entry.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    bool stale = false;
    const size_t dot = rest.find('.');
    if (dot != std::string::npos && dot > 0 && rest.size() - dot - 1 == 6 &&
        rest.find_first_not_of("0123456789") == dot) {
      const long pid = std::strtol(rest.substr(0, dot).c_str(), nullptr, 10);
      stale = pid > 0 && pid != getpid() && kill(static_cast<pid_t>(pid), 0) != 0 &&
              errno == ESRCH;
    } else if (rest.size() == 6 && rest.find('.') == std::string::npos) {
      stale = now - st.st_mtime > kStaleSeconds;
    }
    if (stale) unlink(entry.path().c_str());
  }
}

}  // namespace

AtomicFile::AtomicFile() = default;

AtomicFile::~AtomicFile() {
  if (!temp_path_.empty() && !committed_) {
    std::string ignored;
    if (buf_) buf_->Close(&ignored);
    std::remove(temp_path_.c_str());
  }
  UnregisterTempFile(slot_);
}

bool AtomicFile::Open(const std::string& path, std::string* err) {
  path_ = path;
  if (!CheckReplaceable(path, err)) return false;
  InstallSignalHandlers();
  RemoveStaleTemporaries(path);
  // Our pid in the name lets a later writer tell a dead writer's leftover (SIGKILL) from a live
  // one's file.
  std::string pattern = path + kTempInfix + std::to_string(getpid()) + ".XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  int fd = -1;
  {
    SignalBlock block;
    fd = mkstemp(name.data());
    if (fd < 0) {
      *err = path + ": cannot create output file: " + std::strerror(errno);
      return false;
    }
    temp_path_ = name.data();
    slot_ = RegisterTempFile(temp_path_);
  }
  // mkstemp creates 0600; give the file the permissions a plain create would. Through the
  // descriptor: the file is never reopened by name, so a name swapped meanwhile is not written.
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  buf_ = std::make_unique<BackgroundFileBuf>();
  buf_->Adopt(fd, path);
  out_.rdbuf(buf_.get());  // also clears the stream's state
  return true;
}

bool AtomicFile::Commit(std::string* err) { return Finish(err) && Rename(err); }

bool AtomicFile::Finish(std::string* err) {
  out_.flush();
  std::string reason;
  if (!out_ || !buf_ || !buf_->Close(&reason)) {
    *err = path_ + ": write failed" + (reason.empty() ? "" : ": " + reason);
    return false;
  }
  // Something may have appeared at the target while the content was being written.
  return CheckReplaceable(path_, err);
}

bool AtomicFile::Rename(std::string* err) {
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    *err = path_ + ": cannot write output file: " + std::strerror(errno);
    return false;
  }
  committed_ = true;
  UnregisterTempFile(slot_);  // after the rename: a signal before it still removes the file
  slot_ = -1;
  return true;
}

bool AtomicFile::CommitTogether(const std::vector<AtomicFile*>& files, std::string* err) {
  for (AtomicFile* file : files) {
    if (!file->Finish(err)) return false;
  }
  std::vector<std::string> errors(files.size());
  std::vector<char> ok(files.size(), 0);
  std::vector<std::thread> threads;
  for (size_t i = 1; i < files.size(); ++i) {
    threads.emplace_back([&, i] { ok[i] = files[i]->Rename(&errors[i]); });
  }
  if (!files.empty()) ok[0] = files[0]->Rename(&errors[0]);
  for (std::thread& thread : threads) thread.join();
  for (size_t i = 0; i < files.size(); ++i) {
    if (!ok[i]) {
      *err = errors[i];
      return false;
    }
  }
  return true;
}

}  // namespace depgraph
