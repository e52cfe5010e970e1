// `depgraph check` on random depir programs: the sound pass never loses an ordering, a buffer
// retention or a hazard on them, while the reference pass does on some (so the generator does
// reach the gaps, and the test could fail).
#include <gtest/gtest.h>

#include <cstdlib>
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
/// and user deps on them; and the shapes of issue 10 (IssueTenShape): swapped carried
/// values, branch rebinding without yields, rows of a carried 2-D tensor written at
/// loop-index offsets and yielded unchanged, helper calls, gathers, rebound names.
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
           "kernel fill_row(out t: f32[1, 16]) -> t\nkernel consume_m(in x: f32[4, 16]) -> x\n"
           "orch helper(x: f32[64]) {\n  y = mutate(x) [inout]\n  return y\n}\n"
           "orch main(a: f32[64], b: f32[64], m: f32[4, 16], ids: i32[8], n: index, cond: bool)" +
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
    if (depth < 2 && r < 0.33) return IssueTenShape(env, depth, indent, in_loop, hand, in_scope);
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

  // The shapes of issue 10: swapped carried values, a branch rebinding a name without yields,
  // a loop writing rows of a carried 2-D tensor at loop-index offsets and yielding it
  // unchanged, a helper function (called more than once over a program), a gather, and a
  // call that rebinds an existing name (pattern-B reads when inside a loop).
  std::string IssueTenShape(Env& env, int depth, int indent, bool in_loop, bool hand,
                            bool in_scope) {
    const std::string pad = Pad(indent);
    switch (Pick(6)) {
      case 0: {  // two carried values swapped every iteration
        const std::string t1 = Tensor(env, 64), t2 = Tensor(env, 64);
        if (t1.empty() || t2.empty()) return "";
        const std::string r1 = Fresh("p"), r2 = Fresh("q"), x1 = Fresh("x"), x2 = Fresh("x");
        const std::string w = Fresh("w"), op = Chance(0.5) ? "mutate" : "fill";
        Env inner = env;
        inner.tids.clear();
        env.tensors.push_back({r1, 64});
        env.tensors.push_back({r2, 64});
        return pad + r1 + ", " + r2 + " = for _" + x1 + " in range(0, " + (Chance(0.5) ? "2" : "3") +
               ") iter(" + x1 + " = " + t1 + ", " + x2 + " = " + t2 + ") {\n" + pad + "  " + w +
               " = " + op + "(" + x1 + ") [" + (op == "fill" ? "oe" : "inout") + "]\n" + pad +
               "  eval consume(" + x2 + ") [in]\n" + pad + "  yield " + x2 + ", " + w + "\n" + pad +
               "}\n";
      }
      case 1: {  // one name assigned in both branches of an if without yields
        const std::string t = Tensor(env, 64), u = Tensor(env, 64);
        if (t.empty() || u.empty()) return "";
        const std::string x = Fresh("z");
        env.tensors.push_back({x, 64});
        return pad + "if cond {\n" + pad + "  " + x + " = mutate(" + t + ") [inout]\n" + pad +
               "} else {\n" + pad + "  " + x + " = fill(" + u + ") [oe]\n" + pad + "}\n";
      }
      case 2: {  // rows of a carried 2-D tensor written at loop-index offsets, yielded unchanged
        const std::string r = Fresh("g"), k = Fresh("k"), i = Fresh("i"), t = Fresh("t");
        const bool from_task = Chance(0.5);
        std::string text;
        std::string init = "m";
        if (from_task) {
          init = Fresh("m");
          text += pad + init + " = consume_m(m) [in]\n";
        }
        text += pad + r + " = for " + i + " in " + (Chance(0.5) ? "range(0, 4)" : "parallel(0, 4)") +
                " iter(" + k + " = " + init + ") {\n" + pad + "  " + t + " = slice(" + k +
                ", [1, 16], [" + i + ", 0])\n" + pad + "  " + Fresh("f") + ", " + Fresh("tid") +
                " = submit fill_row(" + t + ") [oe]\n" + pad + "  yield " + k + "\n" + pad + "}\n";
        return text + pad + Fresh("c") + " = consume_m(" + r + ") [in]\n";
      }
      case 3: {  // a helper function (another call of it may come later)
        const std::string t = Tensor(env, 64);
        if (t.empty()) return "";
        const std::string h = Fresh("h");
        env.tensors.push_back({h, 64});
        return pad + h + " = helper(" + t + ") [inout]\n";
      }
      case 4: {  // a gather reading a tensor whole
        const std::string t = Tensor(env, 64);
        if (t.empty()) return "";
        const std::string g = Fresh("gat");
        env.tensors.push_back({g, 64});
        return pad + g + ": f32[64] = dynamic gather(" + t + ", ids)\n";
      }
      default: {  // a call that rebinds an existing name
        const std::string t = Tensor(env, 64);
        if (t.empty()) return "";
        const std::string target = env.tensors[static_cast<size_t>(Pick(static_cast<int>(env.tensors.size())))].first;
        size_t size = 0;
        for (const auto& [name, n] : env.tensors) {
          if (name == target) size = static_cast<size_t>(n);
        }
        // Only plain call results (v...): rebinding a branch or loop result by a definition in
        // one branch is an open gap (docs/depir.md, "Open gaps").
        if (size != 64 || target[0] != 'v') return "";
        return pad + target + " = " + (Chance(0.5) ? "mutate(" + t + ") [inout]" : "fill(" + t + ") [oe]") + "\n";
      }
    }
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

// 500 programs (or DEPGRAPH_FUZZ_PROGRAMS), each checked with `cond` true and false: sound
// passes every one; the reference pass loses something on some of them.
TEST(CheckFuzz, SoundPassKeepsEveryOrderingOnRandomPrograms) {
  testing::TempDir dir;
  int reference_failures = 0;
  // DEPGRAPH_FUZZ_PROGRAMS=20000 runs a longer sweep (docs/depir.md); the suite runs 500.
  const char* env = std::getenv("DEPGRAPH_FUZZ_PROGRAMS");
  const uint32_t programs = env != nullptr && *env ? static_cast<uint32_t>(std::stoul(env)) : 500;
  for (uint32_t seed = 1; seed <= programs; ++seed) {
    const std::string text = RandomProgram(seed).Text();
    const std::string path = dir.File("p" + std::to_string(seed) + ".depir");
    testing::WriteFile(path, text);
    // DEPGRAPH_FUZZ_DUMP=DIR also keeps each program there (for scripts/sound_effectiveness.sh).
    if (const char* dump = std::getenv("DEPGRAPH_FUZZ_DUMP"); dump != nullptr && *dump) {
      testing::WriteFile(std::string(dump) + "/p" + std::to_string(seed) + ".depir", text);
    }
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
