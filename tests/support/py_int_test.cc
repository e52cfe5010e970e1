#include "depgraph/internal/py_int.h"

#include <gtest/gtest.h>

namespace depgraph {
namespace {

uint64_t IdOf(const PyInt& v) {
  uint64_t id = 0;
  EXPECT_TRUE(ToTaskId(v, &id));
  return id;
}

TEST(PyInt, StringsFollowPythonIntBase10) {
  EXPECT_EQ(IdOf(PyIntFromString(" 12 ")), 12u);
  EXPECT_EQ(IdOf(PyIntFromString("1_000")), 1000u);
  EXPECT_EQ(IdOf(PyIntFromString("+5")), 5u);
  EXPECT_EQ(IdOf(PyIntFromString("007")), 7u);
  for (const char* bad : {"0x10", "1.5", "1e3", "", " ", "_1", "1_", "1__0", "+", "--1", "1 2"}) {
    EXPECT_EQ(PyIntFromString(bad).status, PyInt::kInvalid) << bad;
  }
}

TEST(PyInt, NumbersTruncateTowardZero) {
  EXPECT_EQ(IdOf(PyIntFromNumber("1.9")), 1u);
  EXPECT_EQ(IdOf(PyIntFromNumber("-0.5")), 0u);
  EXPECT_EQ(IdOf(PyIntFromNumber("1e3")), 1000u);
  EXPECT_EQ(IdOf(PyIntFromBool(true)), 1u);
}

TEST(PyInt, NegativeIdsWrapAndHugeIdsAreRejected) {
  EXPECT_EQ(IdOf(PyIntFromString("-1")), UINT64_MAX);
  EXPECT_EQ(IdOf(PyIntFromString("18446744073709551615")), UINT64_MAX);
  uint64_t id;
  EXPECT_FALSE(ToTaskId(PyIntFromString("18446744073709551616"), &id));
  EXPECT_FALSE(ToTaskId(PyIntFromNumber("1e30"), &id));
  EXPECT_EQ(PyIntFromString(std::string(60, '9')).status, PyInt::kOverflow);
}

TEST(PyInt, SmallIntsRangeCheck) {
  int64_t v = 0;
  EXPECT_TRUE(ToInt64(PyIntFromString("-3"), &v));
  EXPECT_EQ(v, -3);
  EXPECT_FALSE(ToInt64(PyIntFromString("99999999999999999999"), &v));
}

}  // namespace
}  // namespace depgraph
