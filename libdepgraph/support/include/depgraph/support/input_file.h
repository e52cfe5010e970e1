// Input files: refusing what is not a regular file before anything can block on it, reading a
// whole file with a size bound, and telling whether two paths name the same file.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace depgraph {

/// Why an input file was refused (kOk: it was not).
enum class InputFileStatus {
  kOk,
  kCannotOpen,  ///< stat or open failed (missing, permission denied, ...); see sys_errno
  kDirectory,   ///< a directory
  kNotRegular,  ///< a FIFO, a character or block device or a socket
  kTooLarge,    ///< a regular file larger than the caller's bound
  kReadError,   ///< read(2) failed; see sys_errno
};

/// What CheckRegularInput and ReadInputFile report when they refuse a file.
struct InputFileError {
  InputFileStatus status = InputFileStatus::kOk;
  int sys_errno = 0;    ///< errno of the failed call for kCannotOpen and kReadError, else 0
  std::string message;  ///< one line naming the file and the reason, e.g. "x.json: is a FIFO..."
};

/// Default bound of ReadInputFile for the small text inputs (name maps, depir programs).
inline constexpr uint64_t kMaxSmallInputBytes = uint64_t{256} << 20;

/// What a file that is not a regular file is, for messages: "a directory", "a FIFO", "a symlink",
/// "a character device", "a block device", "a socket" (else "a special file"). O(1).
const char* NonRegularFileKind(mode_t mode);

/// Checks, with stat(2) only (nothing is opened, so a FIFO cannot block and a device is not
/// touched), that `path` names a regular file, following symlinks. On success stores its size
/// in *size (if non-null) and returns true; else fills *error and returns false. O(1).
bool CheckRegularInput(const std::string& path, uint64_t* size, InputFileError* error);

/// Reads the whole regular file at `path` into *content. Refuses directories, FIFOs, devices
/// and sockets before opening them, opens with O_NONBLOCK (so a FIFO swapped in after the
/// check cannot block either) and checks the opened file again, and refuses files of more than
/// `max_bytes` bytes (never reading more than max_bytes + 1). False with *error on refusal.
/// Cost: O(file size) time and memory.
bool ReadInputFile(const std::string& path, uint64_t max_bytes, std::string* content,
                   InputFileError* error);

/// The one-line reason Python's open() gives for a refusal it also makes, as the reference
/// tools print it in their "couldn't read" warnings: a missing or unreadable file
/// "[Errno 2] No such file or directory: 'x.json'", a directory "[Errno 21] Is a directory:
/// 'x.json'" (path escaped, depgraph/message_quote.h); for what Python has no refusal of (a
/// FIFO, a device, an oversized file) `error.message`. O(|path|).
std::string PythonOpenErrorMessage(const std::string& path, const InputFileError& error);

/// True iff `a` and `b` both exist and are the same file (same st_dev and st_ino after
/// following symlinks), however they are spelt. Two stat(2) calls.
bool SameFile(const std::string& a, const std::string& b);

/// For a tool about to write `output`: false with a one-line *err naming both paths when
/// `output` is the same file as one of `inputs` (empty entries are skipped). O(inputs) stats.
bool CheckOutputIsNotAnInput(const std::string& output, const std::vector<std::string>& inputs,
                             std::string* err);

/// For a tool about to write two files: false with a one-line *err when `first` and `second`
/// name the same file, existing (SameFile) or not (the same path once made absolute and
/// normalised; symlinks to it resolved as far as they exist). O(1) stats.
bool CheckOutputsDiffer(const std::string& first, const std::string& second, std::string* err);

}  // namespace depgraph
