// Large arrays asking for transparent huge pages (depgraph/internal/huge_pages.h): the advice
// reaches the kernel for arrays of at least kHugePageAdviceMinBytes, never for smaller ones,
// and the vectors hold what they were asked to.
#include "depgraph/internal/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace depgraph {
namespace {

// True when the kernel honours MADV_HUGEPAGE (THP "always" or "madvise").
bool KernelTakesHugePageAdvice() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  return std::getline(in, modes) && modes.find("[never]") == std::string::npos;
}

// Whether the mapping holding `address` carries the "hg" (MADV_HUGEPAGE) flag in
// /proc/self/smaps.
bool AdvisedForHugePages(const void* address) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(address);
  std::ifstream in("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= a && a < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return (line + " ").find(" hg ") != std::string::npos;
    }
  }
  return false;
}

TEST(HugePages, LargeVectorHoldsItsValues) {
  const std::vector<uint32_t> v = LargeVector<uint32_t>(3'000'000, 7);
  ASSERT_EQ(v.size(), 3'000'000u);
  EXPECT_EQ(v.front(), 7u);
  EXPECT_EQ(v.back(), 7u);
  EXPECT_TRUE(LargeVector<int>(0).empty());
}

TEST(HugePages, LargeArraysAreAdvisedAndSmallOnesAreNot) {
  if (!KernelTakesHugePageAdvice()) GTEST_SKIP() << "transparent huge pages are off";
  // 16 MiB: whole 2 MiB pages inside it, whatever its alignment.
  const std::vector<uint64_t> large = LargeVector<uint64_t>(2 << 20);
  EXPECT_TRUE(AdvisedForHugePages(large.data() + large.size() / 2));
  std::vector<uint64_t> reserved;
  ReserveLarge(&reserved, 2 << 20);
  reserved.resize(2 << 20);
  EXPECT_TRUE(AdvisedForHugePages(reserved.data() + reserved.size() / 2));
  // 1 MiB: below the threshold, left as malloc gave it (unless malloc advises all it maps).
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables != nullptr && std::string(tunables).find("hugetlb") != std::string::npos) return;
  const std::vector<uint64_t> small = LargeVector<uint64_t>(1 << 17);
  EXPECT_FALSE(AdvisedForHugePages(small.data() + small.size() / 2));
}

TEST(HugePages, AnEstimateBeyondTheAddressSpaceLeavesTheVectorAsItWas) {
  std::vector<uint64_t> v = {1, 2, 3};
  ReserveLarge(&v, SIZE_MAX / 4);
  EXPECT_EQ(v, (std::vector<uint64_t>{1, 2, 3}));
  AdviseHugePages(nullptr, size_t{64} << 20);  // no memory: nothing to advise, no failure
}

}  // namespace
}  // namespace depgraph
