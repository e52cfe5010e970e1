// `depgraph check` on random depir programs: the sound pass never loses an ordering, a buffer
// retention or a hazard on them, while the reference pass does on some (so the generator does
// reach the gaps, and the test could fail).
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "derive_command.h"
#include "orchestration/random_depir_program.h"
#include "test_util.h"

namespace depgraph {
namespace {

// 500 programs (or DEPGRAPH_FUZZ_PROGRAMS), each checked with `cond` true and false: sound
// passes every one; the reference pass loses something on some of them. Every program is
// valid (the original runs: no check exits 1). DEPGRAPH_FUZZ_OPEN_SHAPES=1 also generates the
// shapes sound mode still fails on (tests/orchestration/random_depir_program.cc), which fails this test.
TEST(CheckFuzz, SoundPassKeepsEveryOrderingOnRandomPrograms) {
  testing::TempDir dir;
  int reference_failures = 0, sound_failures = 0;
  std::string failed_seeds;
  // DEPGRAPH_FUZZ_PROGRAMS=20000 runs a longer sweep (docs/depir.md); the suite runs 500.
  const char* env = std::getenv("DEPGRAPH_FUZZ_PROGRAMS");
  const uint32_t programs = env != nullptr && *env ? static_cast<uint32_t>(std::stoul(env)) : 500;
  const char* open = std::getenv("DEPGRAPH_FUZZ_OPEN_SHAPES");
  const bool open_shapes = open != nullptr && std::string(open) == "1";
  for (uint32_t seed = 1; seed <= programs; ++seed) {
    const std::string text = testing::RandomProgram(seed, open_shapes).Text();
    const std::string path = dir.File("p" + std::to_string(seed) + ".depir");
    testing::WriteFile(path, text);
    // DEPGRAPH_FUZZ_DUMP=DIR also keeps each program there (for scripts/sound_effectiveness.sh).
    if (const char* dump = std::getenv("DEPGRAPH_FUZZ_DUMP"); dump != nullptr && *dump) {
      testing::WriteFile(std::string(dump) + "/p" + std::to_string(seed) + ".depir", text);
    }
    for (const char* cond : {"cond=true", "cond=false"}) {
      CheckArgs args;
      args.input = path;
      args.sets = testing::RandomProgram::Bindings();
      args.sets.push_back(cond);
      args.sound = true;
      args.gate.allow_empty = true;  // a random program may submit nothing on this branch
      std::ostringstream out, err;
      const int code = RunCheckCommand(args, out, err);
      ASSERT_NE(code, 1) << "seed " << seed << " " << cond << "\n" << text << err.str();
      if (code != 0 && sound_failures++ == 0) {  // the first failure in full, then the seeds
        ADD_FAILURE() << "seed " << seed << " " << cond << "\n" << text << out.str() << err.str();
      } else if (code != 0) {
        failed_seeds += " " + std::to_string(seed) + "/" + cond;
      }
      args.sound = false;
      std::ostringstream ref_out, ref_err;
      const int ref_code = RunCheckCommand(args, ref_out, ref_err);
      ASSERT_NE(ref_code, 1) << "seed " << seed << "\n" << text << ref_err.str();
      if (ref_code == 3) ++reference_failures;
    }
  }
  std::cout << programs << " programs, " << 2 * programs << " checks per mode: sound fails "
            << sound_failures << ", reference fails " << reference_failures << "\n";
  EXPECT_EQ(sound_failures, 0) << "further failing seeds:" << failed_seeds;
  EXPECT_GT(reference_failures, 0);
}

}  // namespace
}  // namespace depgraph
