// Bounded reads of the runner's input files (run descriptions, tensor data files): only regular
// files, never more bytes than the caller can use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace depgraph::orch_runner {

/// Reads at most `max_bytes` bytes of the regular file `path` into *out and sets *file_size to
/// its size as fstat reports it (compare the two to spot a file that is too long or changed).
/// Fails with a one-line reason in *why ("is a directory", "is not a regular file (a character
/// device)", "cannot read: <errno text>") for anything that is not a regular file: a FIFO,
/// /dev/zero or a terminal is refused without a read, and opening never blocks.
/// O(min(file size, max_bytes)).
bool ReadRegularFile(const std::string& path, uint64_t max_bytes, std::vector<unsigned char>* out,
                     uint64_t* file_size, std::string* why);

}  // namespace depgraph::orch_runner
