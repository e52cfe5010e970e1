#include "depgraph/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace depgraph {

AtomicFile::~AtomicFile() {
  if (!temp_path_.empty() && !committed_) {
    out_.close();
    std::remove(temp_path_.c_str());
  }
}

bool AtomicFile::Open(const std::string& path, std::string* err) {
  path_ = path;
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    *err = path + ": is a directory";
    return false;
  }
  std::string pattern = path + ".tmp.XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) {
    *err = path + ": cannot create output file: " + std::strerror(errno);
    return false;
  }
  close(fd);
  temp_path_ = name.data();
  out_.open(temp_path_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    *err = path + ": cannot open output file";
    return false;
  }
  return true;
}

bool AtomicFile::Commit(std::string* err) {
  out_.flush();
  if (!out_) {
    *err = path_ + ": write failed";
    return false;
  }
  out_.close();
  // mkstemp creates 0600; give the file the permissions a plain create would.
  mode_t mask = umask(0);
  umask(mask);
  chmod(temp_path_.c_str(), 0666 & ~mask);
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    *err = path_ + ": cannot write output file: " + std::strerror(errno);
    return false;
  }
  committed_ = true;
  return true;
}

}  // namespace depgraph
