// `depgraph check` on random depir programs: the sound pass never loses an ordering, a buffer
// retention or a hazard on them, while the reference pass does on some (so the generator does
// reach the gaps, and the test could fail).
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "derive_command.h"
#include "test_util.h"

namespace depgraph {
namespace {

/// A seeded generator of small orchestration programs over one 64-float kernel family
/// (fill / consume / mutate, and 32-float variants on slices): AUTO or hand functions,
/// nested AUTO and MANUAL scopes, fixed, symbolic and parallel loops (with and without iter
/// args), if/else with yields, creates (some manual_dep), slices, submits with TaskId tails
/// and user deps on them.
class RandomProgram {
 public:
  explicit RandomProgram(uint32_t seed) : rng_(seed) {}

  std::string Text() {
    const bool hand = Chance(0.4);
    std::string body;
    Env env{{{"a", 64}, {"b", 64}}, {}};
    if (hand) {
      body = "  scope auto {\n" + Block(env, 1, 2, false, true, true) + "  }\n";
      Env after{{{"a", 64}, {"b", 64}}, {}};
      body += Block(after, 0, 1, false, true, false);
    } else {
      body = Block(env, 0, 1, false, false, false);
    }
    return "kernel fill(out t: f32[64]) -> t\nkernel consume(in x: f32[64]) -> x\n"
           "kernel mutate(inout x: f32[64]) -> x\nkernel fill32(out t: f32[32]) -> t\n"
           "kernel consume32(in x: f32[32]) -> x\nkernel mutate32(inout x: f32[32]) -> x\n"
           "orch main(a: f32[64], b: f32[64], n: index, cond: bool)" +
           std::string(hand ? " hand" : "") + " {\n" + body + "  return a\n}\n";
  }

 private:
  struct Env {
    std::vector<std::pair<std::string, int>> tensors;  ///< name, element count
    std::vector<std::string> tids;
  };

  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  std::string Fresh(const char* prefix) { return prefix + std::to_string(++names_); }
  static std::string Pad(int indent) { return std::string(2 * static_cast<size_t>(indent), ' '); }

  std::string Tensor(const Env& env, int size) {
    std::vector<std::string> fit;
    for (const auto& [name, n] : env.tensors) {
      if (n == size) fit.push_back(name);
    }
    return fit.empty() ? "" : fit[static_cast<size_t>(Pick(static_cast<int>(fit.size())))];
  }

  std::string Block(Env& env, int depth, int indent, bool in_loop, bool hand, bool in_scope) {
    std::string out;
    for (int i = 0, n = 1 + Pick(5); i < n; ++i) out += Stmt(env, depth, indent, in_loop, hand, in_scope);
    return out;
  }

  std::string Stmt(Env& env, int depth, int indent, bool in_loop, bool hand, bool in_scope) {
    const std::string pad = Pad(indent);
    const double r = std::uniform_real_distribution<double>(0, 1)(rng_);
    static const char* kLoops[] = {"range(0, 3)", "range(0, 1)", "parallel(0, n)", "range(0, n)",
                                   "parallel(0, 2)"};
    if (depth < 2 && r < 0.12) {  // pattern-B loop
      Env inner = env;
      inner.tids.clear();
      return pad + "for " + Fresh("i") + " in " + kLoops[Pick(5)] + " {\n" +
             Block(inner, depth + 1, indent + 1, true, hand, in_scope) + pad + "}\n";
    }
    if (depth < 2 && r < 0.2 && hand) {  // nested scope; a MANUAL one holds calls only
      Env inner = env;
      if (in_scope) inner.tids.clear();
      if (Chance(0.25)) {
        std::string calls;
        for (int i = 0, n = 1 + Pick(3); i < n; ++i) calls += Call(inner, indent + 1, false);
        return pad + "scope manual {\n" + calls + pad + "}\n";
      }
      return pad + "scope auto {\n" + Block(inner, depth + 1, indent + 1, in_loop, hand, true) +
             pad + "}\n";
    }
    if (depth < 2 && r < 0.24) {  // if/else with a yield
      const std::string y = Fresh("y"), t = Tensor(env, 64), u = Tensor(env, 64);
      Env then_env = env, else_env = env;
      then_env.tids.clear();
      else_env.tids.clear();
      std::string text = pad + y + " = if cond {\n" +
                         Block(then_env, depth + 1, indent + 1, in_loop, hand, in_scope);
      text += pad + "  yield " + t + "\n" + pad + "} else {\n" +
              Block(else_env, depth + 1, indent + 1, in_loop, hand, in_scope);
      env.tensors.push_back({y, 64});
      return text + pad + "  yield " + u + "\n" + pad + "}\n";
    }
    if (depth < 2 && r < 0.3) {  // loop with an iter arg
      const std::string result = Fresh("r"), carried = Fresh("k"), init = Tensor(env, 64);
      static const char* kIterLoops[] = {"range(0, 3)", "parallel(0, n)", "range(0, n)", "parallel(0, 2)"};
      const std::string loop = kIterLoops[Pick(4)];
      Env inner = env;
      inner.tids.clear();
      inner.tensors.push_back({carried, 64});
      std::string text = pad + result + " = for _" + carried + " in " + loop + " iter(" +
                         carried + " = " + init + ") {\n" +
                         Block(inner, depth + 1, indent + 1, true, hand, in_scope);
      const std::string w = Fresh("w");
      const bool fill = Chance(0.5);
      text += pad + "  " + w + " = " + (fill ? "fill" : "mutate") + "(" + carried + ") [" +
              (fill && Chance(0.5) ? "oe" : "inout") + "]\n";
      env.tensors.push_back({result, 64});
      return text + pad + "  yield " + w + "\n" + pad + "}\n";
    }
    if (r < 0.36) {  // a slice or a create
      if (Chance(0.5)) {
        const std::string src = Tensor(env, 64), s = Fresh("s");
        static const char* kOffsets[] = {"0", "16", "32"};
        env.tensors.push_back({s, 32});
        return pad + s + " = slice(" + src + ", [32], [" + kOffsets[Pick(3)] + "])\n";
      }
      const std::string c = Fresh("c");
      env.tensors.push_back({c, 64});
      return pad + c + " = create(f32[64])" + (Chance(0.2) ? " manual_dep" : "") + "\n";
    }
    if (hand && !in_scope && Chance(0.7)) return "";  // few calls outside scopes in hand mode
    return Call(env, indent, in_loop);
  }

  // One kernel call on a tensor of `env`, sometimes a submit, sometimes with a user dep.
  std::string Call(Env& env, int indent, bool in_loop) {
    const int size = Chance(0.33) ? 32 : 64;
    const std::string t = Tensor(env, size);
    if (t.empty()) return "";
    static const char* kOps[] = {"fill", "consume", "mutate", "consume", "fill"};
    const std::string op = kOps[Pick(5)];
    std::string dir = op == "consume" ? "in" : "inout";
    if (op == "fill" && (in_loop ? Chance(0.5) : Chance(0.67))) dir = "oe";
    std::string deps;
    if (!env.tids.empty() && Chance(0.3)) {
      deps = " deps=[" + env.tids[static_cast<size_t>(Pick(static_cast<int>(env.tids.size())))] + "]";
    }
    const std::string v = Fresh("v"), kernel = op + (size == 32 ? "32" : "");
    env.tensors.push_back({v, size});
    if (Chance(0.4)) {
      const std::string tid = Fresh("tid");
      env.tids.push_back(tid);
      return Pad(indent) + v + ", " + tid + " = submit " + kernel + "(" + t + ") [" + dir + "]" +
             deps + "\n";
    }
    return Pad(indent) + v + " = " + kernel + "(" + t + ") [" + dir + "]" + deps + "\n";
  }

  std::mt19937 rng_;
  int names_ = 0;
};

// 500 programs, each checked with `cond` true and false: sound passes every one; the
// reference pass loses something on at least one (measured: 159 of the 1,000 runs).
TEST(CheckFuzz, SoundPassKeepsEveryOrderingOnRandomPrograms) {
  testing::TempDir dir;
  int reference_failures = 0;
  for (uint32_t seed = 1; seed <= 500; ++seed) {
    const std::string text = RandomProgram(seed).Text();
    const std::string path = dir.File("p" + std::to_string(seed) + ".depir");
    testing::WriteFile(path, text);
    for (const char* cond : {"cond=true", "cond=false"}) {
      CheckArgs args;
      args.input = path;
      args.sets = {"n=2", cond};
      args.sound = true;
      std::ostringstream out, err;
      const int code = RunCheckCommand(args, out, err);
      ASSERT_EQ(code, 0) << "seed " << seed << " " << cond << "\n"
                         << text << out.str() << err.str();
      args.sound = false;
      std::ostringstream ref_out, ref_err;
      const int ref_code = RunCheckCommand(args, ref_out, ref_err);
      ASSERT_NE(ref_code, 1) << "seed " << seed << "\n" << text << ref_err.str();
      if (ref_code == 3) ++reference_failures;
    }
  }
  EXPECT_GT(reference_failures, 0);
}

}  // namespace
}  // namespace depgraph
