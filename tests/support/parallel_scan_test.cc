// The structural scan that cuts an array into blocks for the parallel load: the 64-byte steps
// agree with the byte-by-byte reference, and the cuts are exactly the positions a sequential
// parse passes between elements, whatever the strings hold.
#include "depgraph/internal/parallel_scan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "depgraph/support/json_reader.h"

namespace depgraph {
namespace {

// A random JSON value whose strings are full of what could fool a scan: brackets, commas,
// escaped quotes and backslashes, \u escapes of structural characters.
std::string RandomValue(std::mt19937* rng, int depth) {
  static const char* const kStrings[] = {
      R"("},{")", R"("\"")", R"("\\")", R"("\\\"],[")", R"("\u005d\u007d,")", R"("")",
      R"("x\\")", R"("[[[")", R"("\/\b\f\n\r\t")", R"("é€𝄞")", R"("a,b:c")", R"("\\\\")"};
  std::uniform_int_distribution<int> pick(0, depth > 3 ? 3 : 6);
  switch (pick(*rng)) {
    case 0: return kStrings[(*rng)() % (sizeof kStrings / sizeof kStrings[0])];
    case 1: return std::to_string((*rng)() % 100000);
    case 2: return "null";
    case 3: return (*rng)() % 2 ? "true" : "-1.5e3";
    case 4:
    case 5: {
      std::string out = "{";
      const int n = static_cast<int>((*rng)() % 4);
      for (int i = 0; i < n; ++i) {
        if (i) out += (*rng)() % 3 ? "," : " ,\n ";
        out += kStrings[(*rng)() % (sizeof kStrings / sizeof kStrings[0])];
        out += (*rng)() % 2 ? ":" : " : ";
        out += RandomValue(rng, depth + 1);
      }
      return out + "}";
    }
    default: {
      std::string out = "[";
      const int n = static_cast<int>((*rng)() % 4);
      for (int i = 0; i < n; ++i) {
        if (i) out += (*rng)() % 3 ? "," : "\t,\r\n";
        out += RandomValue(rng, depth + 1);
      }
      return out + "]";
    }
  }
}

std::string RandomArray(std::mt19937* rng, int elements) {
  std::string out = "{\"edges\": [";
  for (int i = 0; i < elements; ++i) {
    if (i) out += (*rng)() % 4 ? "," : " , ";
    out += RandomValue(rng, 1);
  }
  return out + " ]}";
}

// The separators a sequential parse passes in the array at `open`: after each element, and
// the closing bracket.
std::vector<size_t> SequentialSeparators(const std::string& text, size_t open) {
  JsonReader reader;
  reader.OpenBuffer(text);
  reader.ResumeInArray(open + 1, 2, false);
  std::vector<size_t> separators;
  for (bool first = true;; first = false) {
    reader.Peek();
    if (!first || text[reader.position()] == ']') separators.push_back(reader.position());
    if (!reader.NextElement()) break;
    EXPECT_TRUE(reader.SkipValue()) << reader.error();
  }
  EXPECT_FALSE(reader.failed()) << reader.error();
  return separators;
}

TEST(ParallelScan, StepsAgreeWithTheByteScan) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    const std::string text = RandomArray(&rng, 1 + round % 40);
    const size_t open = text.find('[');
    ScanState whole;
    const size_t close = ScanBytes(text.data(), open + 1, text.size(), false, &whole);
    ASSERT_EQ(text[close], ']');
    for (size_t from = open + 1; from <= close; from += 1 + rng() % 37) {
      ScanState at_from;
      ASSERT_EQ(ScanBytes(text.data(), open + 1, from, false, &at_from), from);
      ScanState bytes = at_from, steps = at_from;
      const size_t by_bytes = ScanBytes(text.data(), from, text.size(), false, &bytes);
      const size_t by_steps = ScanStructure(text.data(), from, text.size(), &steps);
      ASSERT_EQ(by_steps, close) << text << " from " << from;
      ASSERT_EQ(by_bytes, close);
      // Between elements, states agree wherever the 64-byte steps stopped.
      ScanState bytes_to = at_from, steps_to = at_from;
      const size_t to = std::min(close, from + 64 * (1 + rng() % 4));
      ASSERT_EQ(ScanBytes(text.data(), from, to, false, &bytes_to), to);
      ASSERT_EQ(ScanStructure(text.data(), from, to, &steps_to), to);
      EXPECT_EQ(steps_to.depth, bytes_to.depth);
      EXPECT_EQ(steps_to.in_string, bytes_to.in_string);
      EXPECT_EQ(steps_to.escaped, bytes_to.escaped);
    }
  }
}

TEST(ParallelScan, CutsAreSeparatorsTheSequentialParsePasses) {
  std::mt19937 rng(11);
  for (int round = 0; round < 300; ++round) {
    const std::string text = RandomArray(&rng, round % 60);
    const size_t open = text.find('[');
    const std::vector<size_t> separators = SequentialSeparators(text, open);
    ASSERT_FALSE(separators.empty());
    const size_t block_bytes = 1 + rng() % 97;
    ArraySplitter splitter(text.data(), text.size(), open, block_bytes);
    BlockBounds bounds;
    size_t previous_end = open;
    size_t j = 0;
    for (; splitter.Block(j, &bounds); ++j) {
      ASSERT_EQ(bounds.begin, previous_end) << "block " << j << " of " << text;
      previous_end = bounds.end;
      // The first separator at or after the block's nominal start.
      const size_t nominal = open + 1 + (j + 1) * block_bytes;
      auto expected = std::lower_bound(separators.begin(), separators.end(), nominal);
      if (expected == separators.end()) expected = separators.end() - 1;
      ASSERT_EQ(bounds.end, *expected) << "block " << j << " of " << text;
    }
    EXPECT_EQ(previous_end, separators.back()) << text;  // the last block ends at the ']'
    EXPECT_GE(j, 1u);
  }
}

TEST(ParallelScan, EmptyAndOneElementArrays) {
  for (const std::string text : {"[]", "[ \n ]", "[1]", "[ {\"a\":\"]\"} ]", "[\"\\\\\"]"}) {
    for (size_t block_bytes : {1, 2, 3, 100}) {
      ArraySplitter splitter(text.data(), text.size(), 0, block_bytes);
      BlockBounds bounds;
      ASSERT_TRUE(splitter.Block(0, &bounds)) << text;
      EXPECT_EQ(bounds.begin, 0u);
      EXPECT_EQ(bounds.end, text.size() - 1) << text;  // no ',': one block up to the ']'
      EXPECT_FALSE(splitter.Block(1, &bounds)) << text;
    }
  }
}

TEST(ParallelScan, UnterminatedArrayEndsAtTheInputsEnd) {
  const std::string text = R"([1, "a]", {"b": [2, 3]})";
  ArraySplitter splitter(text.data(), text.size(), 0, 4);
  BlockBounds bounds;
  size_t j = 0, last_end = 0;
  while (splitter.Block(j, &bounds)) {
    last_end = bounds.end;
    ++j;
  }
  EXPECT_EQ(last_end, text.size());
}

// All the blocks a splitter gives, as (begin, end) pairs.
std::vector<std::pair<size_t, size_t>> AllBlocks(ArraySplitter* splitter) {
  std::vector<std::pair<size_t, size_t>> blocks;
  BlockBounds bounds;
  for (size_t j = 0; splitter->Block(j, &bounds); ++j) blocks.push_back({bounds.begin, bounds.end});
  return blocks;
}

// A splitter that scans copies of the input through a small window (the loader's: the copies
// come from pread) cuts where the in-place scan does, whatever the window and block sizes.
TEST(ParallelScan, WindowedScanCutsWhereTheInPlaceScanDoes) {
  std::mt19937 rng(17);
  for (int round = 0; round < 300; ++round) {
    const std::string text = RandomArray(&rng, round % 60);
    const size_t open = text.find('[');
    const size_t block_bytes = 1 + rng() % 97;
    ArraySplitter in_place(text.data(), text.size(), open, block_bytes);
    const auto expected = AllBlocks(&in_place);
    for (size_t window : {size_t{1}, size_t{2}, size_t{7}, size_t{64}, size_t{1} << 20}) {
      ArraySplitter windowed(
          [&](size_t offset, size_t length, char* dest) {
            if (offset + length > text.size()) return false;
            text.copy(dest, length, offset);
            return true;
          },
          text.size(), open, block_bytes, window);
      EXPECT_EQ(AllBlocks(&windowed), expected) << "window " << window << ": " << text;
    }
  }
}

// With a window as large as a block (the loader's choice), the scan copies each byte of a
// large array about once.
TEST(ParallelScan, WindowedScanCopiesEachByteAboutOnce) {
  std::string text = "[";
  for (int i = 0; i < 20000; ++i) {
    text += (i > 0 ? "," : "") + std::string(R"({"id":")") + std::to_string(i) +
            R"(","v":[1,2,{"s":"a],b\"c"}]})";
  }
  text += "]";
  size_t bytes_read = 0;
  const size_t block = 4096;
  ArraySplitter splitter(
      [&](size_t offset, size_t length, char* dest) {
        text.copy(dest, length, offset);
        bytes_read += length;
        return true;
      },
      text.size(), 0, block, block);
  const auto blocks = AllBlocks(&splitter);
  EXPECT_GT(blocks.size(), 100u);
  EXPECT_EQ(blocks.back().second, text.size() - 1);
  EXPECT_LE(bytes_read, text.size() + text.size() / 10) << bytes_read << " of " << text.size();
}

// Bytes the reader cannot give end the array where they start: no crash, no cut past them.
TEST(ParallelScan, UnreadableBytesEndTheArray) {
  const std::string text = R"([1, "a,b", {"c": [2, 3]}, 4, 5, 6, 7, 8])";
  for (size_t readable : {size_t{0}, size_t{1}, size_t{5}, size_t{12}, size_t{30}}) {
    for (size_t window : {size_t{1}, size_t{4}, size_t{64}}) {
      ArraySplitter splitter(
          [&](size_t offset, size_t length, char* dest) {
            if (offset + length > readable) return false;
            text.copy(dest, length, offset);
            return true;
          },
          text.size(), 0, 3, window);
      const auto blocks = AllBlocks(&splitter);
      ASSERT_FALSE(blocks.empty());
      for (const auto& [begin, end] : blocks) EXPECT_LE(end, std::max<size_t>(readable, 1));
    }
  }
}

}  // namespace
}  // namespace depgraph
