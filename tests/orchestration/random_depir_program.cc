#include "orchestration/random_depir_program.h"

namespace depgraph::testing {
namespace {

// Shapes on which `depgraph check --sound` still fails are generated only with open_shapes
// (DEPGRAPH_FUZZ_OPEN_SHAPES=1), so that CheckFuzz stays green while they are open. None is
// open today; the two this generator found are closed and generated always:
// - a gather of a window of a memref pool (the gather reads the whole allocation: rule (h)
//   compares the memref base, not the window);
// - deps=[t] where t is carried out of a loop of unknown trip count whose iterations the
//   runtime does not chain (t names the last iteration only: rule (e)).
constexpr bool kGatherOfMemrefOpen = false;
constexpr bool kUnchainedDynamicLoopTaskIdOpen = false;

}  // namespace

std::vector<std::string> RandomProgram::Bindings() { return {"n=2", "go=2", "skip=0", "qoff=128"}; }

std::string RandomProgram::Text() {
  const bool hand = Chance(0.4);
  std::string body;
  Env env = EntryEnv();
  if (hand) {
    body = "  scope auto {\n" + Block(env, 1, 2, false, true, true) + "  }\n";
    Env after = EntryEnv();
    after.far_tids = env.tids;  // the scope's TaskIds
    body += Block(after, 0, 1, false, true, false);
  } else {
    body = Block(env, 0, 1, false, false, false);
  }
  return "kernel fill(out t: f32[64]) -> t\nkernel consume(in x: f32[64]) -> x\n"
         "kernel mutate(inout x: f32[64]) -> x\nkernel fill32(out t: f32[32]) -> t\n"
         "kernel consume32(in x: f32[32]) -> x\nkernel mutate32(inout x: f32[32]) -> x\n"
         "kernel fill_row(out t: f32[1, 16]) -> t\nkernel consume_m(in x: f32[4, 16]) -> x\n"
         "orch helper(x: f32[64]) {\n  y = mutate(x) [inout]\n  return y\n}\n"
         "orch main(a: f32[64], b: f32[64], m: f32[4, 16], ids: i32[8], n: index, cond: bool,\n"
         "          go: bool, skip: bool,\n"
         "          pa: f32[64] memref(pool, 0, 256), pb: f32[64] memref(pool, 128, 256),\n"
         "          pc: f32[64] memref(pool, 256, 256), pd: f32[32] memref(pool, 64, 128),\n"
         "          qa: f32[64] memref(pool2, 0, 256), qb: f32[64] memref(pool2, qoff, 256))" +
         std::string(hand ? " hand" : "") + " {\n" + body + "  return a\n}\n";
}

// The entry parameters calls may use: a, b, and the memref windows of `pool` (pa [0,256),
// pb [128,384), pc [256,512), pd [64,192) bytes) and `pool2` (qa [0,256), qb at qoff=128).
RandomProgram::Env RandomProgram::EntryEnv() const {
  Env env{{{"a", 64}, {"b", 64}}, {"pa", "pb", "pc", "pd", "qa", "qb"}, {}, {}};
  for (const char* p : {"pa", "pb", "pc", "qa", "qb"}) env.tensors.push_back({p, 64});
  env.tensors.push_back({"pd", 32});
  return env;
}

void RandomProgram::Add(Env& env, const std::string& name, int size,
                        const std::vector<std::string>& from) {
  env.tensors.push_back({name, size});
  for (const std::string& f : from) {
    if (env.pooled.count(f) != 0) env.pooled.insert(name);
  }
}

std::string RandomProgram::Tensor(const Env& env, int size, bool unpooled) {
  std::vector<std::string> fit;
  for (const auto& [name, n] : env.tensors) {
    if (n == size && !(unpooled && env.pooled.count(name) != 0)) fit.push_back(name);
  }
  return fit.empty() ? "" : fit[static_cast<size_t>(Pick(static_cast<int>(fit.size())))];
}

std::string RandomProgram::Block(Env& env, int depth, int indent, bool in_loop, bool hand,
                                 bool in_scope) {
  std::string out;
  for (int i = 0, n = 1 + Pick(5); i < n; ++i) {
    out += Stmt(env, depth, indent, in_loop, hand, in_scope);
  }
  return out;
}

std::string RandomProgram::Stmt(Env& env, int depth, int indent, bool in_loop, bool hand,
                                bool in_scope) {
  const double r = std::uniform_real_distribution<double>(0, 1)(rng_);
  const bool nest = depth < 2;
  if (nest && r < 0.12) return PatternBLoop(env, depth, indent, hand, in_scope);
  if (nest && r < 0.20 && (hand || r < 0.16)) {
    return NestedScope(env, depth, indent, in_loop, hand, in_scope);
  }
  if (nest && r < 0.24) return IfElse(env, depth, indent, in_loop, hand, in_scope);
  if (nest && r < 0.30) return IterLoop(env, depth, indent, hand, in_scope);
  if (nest && r < 0.33) return IssueTenShape(env, indent);
  if (nest && r < 0.36) return WhileLoop(env, depth, indent, hand, in_scope);
  if (nest && r < 0.39) return CrossBlockTaskId(env, indent, in_loop);
  if (nest && r < 0.41) return ManualScopeInLoop(env, depth, indent, hand, in_scope);
  if (r < 0.44) return MemrefAlias(env, indent, in_loop);
  if (r < 0.47) return SliceOrCreate(env, indent);
  if (hand && !in_scope && Chance(0.7)) return "";  // few calls outside scopes in hand mode
  return Call(env, indent, in_loop);
}

// A loop without iter args (pattern B): fixed, single-trip, symbolic or parallel.
std::string RandomProgram::PatternBLoop(Env& env, int depth, int indent, bool hand, bool in_scope) {
  static const char* kLoops[] = {"range(0, 3)", "range(0, 1)", "parallel(0, n)", "range(0, n)",
                                 "parallel(0, 2)"};
  Env inner = env;
  inner.tids.clear();
  const std::string pad = Pad(indent);
  return pad + "for " + Fresh("i") + " in " + kLoops[Pick(5)] + " {\n" +
         Block(inner, depth + 1, indent + 1, true, hand, in_scope) + pad + "}\n";
}

// A nested scope (in hand and AUTO functions): AUTO with any statements, or MANUAL.
std::string RandomProgram::NestedScope(Env& env, int depth, int indent, bool in_loop, bool hand,
                                       bool in_scope) {
  Env inner = env;
  if (in_scope) inner.tids.clear();
  if (Chance(0.25)) return ManualScope(inner, indent, in_loop);
  const std::string pad = Pad(indent);
  return pad + "scope auto {\n" + Block(inner, depth + 1, indent + 1, in_loop, hand, true) + pad +
         "}\n";
}

// A MANUAL scope of one to three calls (only calls: no AUTO scope may open inside it).
std::string RandomProgram::ManualScope(Env& env, int indent, bool in_loop) {
  Env inner = env;
  std::string calls;
  for (int i = 0, n = 1 + Pick(3); i < n; ++i) calls += Call(inner, indent + 1, in_loop);
  return Pad(indent) + "scope manual {\n" + calls + Pad(indent) + "}\n";
}

// if/else, each branch yielding a tensor.
std::string RandomProgram::IfElse(Env& env, int depth, int indent, bool in_loop, bool hand,
                                  bool in_scope) {
  const std::string pad = Pad(indent), y = Fresh("y"), t = Tensor(env, 64), u = Tensor(env, 64);
  Env then_env = env, else_env = env;
  then_env.tids.clear();
  else_env.tids.clear();
  std::string text = pad + y + " = if cond {\n" +
                     Block(then_env, depth + 1, indent + 1, in_loop, hand, in_scope);
  text += pad + "  yield " + t + "\n" + pad + "} else {\n" +
          Block(else_env, depth + 1, indent + 1, in_loop, hand, in_scope);
  Add(env, y, 64, {t, u});
  return text + pad + "  yield " + u + "\n" + pad + "}\n";
}

// A for loop with a carried tensor that the body writes last and yields.
std::string RandomProgram::IterLoop(Env& env, int depth, int indent, bool hand, bool in_scope) {
  static const char* kIterLoops[] = {"range(0, 3)", "parallel(0, n)", "range(0, n)",
                                     "parallel(0, 2)"};
  const std::string pad = Pad(indent), result = Fresh("r"), carried = Fresh("k");
  const std::string init = Tensor(env, 64), loop = kIterLoops[Pick(4)];
  Env inner = env;
  inner.tids.clear();
  Add(inner, carried, 64, {init});
  std::string text = pad + result + " = for _" + carried + " in " + loop + " iter(" + carried +
                     " = " + init + ") {\n" +
                     Block(inner, depth + 1, indent + 1, true, hand, in_scope);
  const std::string w = Fresh("w");
  const bool fill = Chance(0.5);
  text += pad + "  " + w + " = " + (fill ? "fill" : "mutate") + "(" + carried + ") [" +
          (fill && Chance(0.5) ? "oe" : "inout") + "]\n";
  Add(env, result, 64, {init});
  return text + pad + "  yield " + w + "\n" + pad + "}\n";
}

// A while loop carrying a tensor, its own condition and sometimes a TaskId (seeded by
// task_invalid(), exported for later deps). depir cannot compute a bool, so the body yields 0
// ("false") for the condition; `depgraph run` takes a while's trip count from the --set binding
// of the condition's name (go=2, skip=0), so every loop ends.
std::string RandomProgram::WhileLoop(Env& env, int depth, int indent, bool hand, bool in_scope) {
  const std::string init = Tensor(env, 64);
  if (init.empty()) return "";
  const std::string pad = Pad(indent), cond = Chance(0.75) ? "go" : "skip";
  const std::string r = Fresh("r"), k = Fresh("k"), g = Fresh("g"), w = Fresh("w");
  const bool carry_tid = Chance(0.5);
  const std::string seed = Fresh("ti"), lt = Fresh("lt"), out_tid = Fresh("lt"), tid = Fresh("tid");
  Env inner = env;
  inner.tids.clear();
  Add(inner, k, 64, {init});
  if (carry_tid) inner.far_tids.push_back(lt);  // the previous iteration's task
  std::string text = carry_tid ? pad + seed + " = task_invalid()\n" : "";
  text += pad + r + ", " + g + (carry_tid ? ", " + out_tid : "") + " = while " + cond + " iter(" +
          k + " = " + init + ", " + cond + " = " + cond +
          (carry_tid ? ", " + lt + " = " + seed : "") + ") {\n" +
          Block(inner, depth + 1, indent + 1, true, hand, in_scope);
  const bool oe = Chance(0.25), dep = carry_tid && Chance(0.5);
  const bool chained = !oe || dep;  // the runtime orders every iteration before the last
  text += pad + "  " + w + (carry_tid ? ", " + tid + " = submit " : " = ") +
          (oe || Chance(0.5) ? "fill" : "mutate") + "(" + k + ") [" + (oe ? "oe" : "inout") + "]" +
          (dep ? " deps=[" + lt + "]" : "") + "\n";
  text += pad + "  yield " + w + ", 0" + (carry_tid ? ", " + tid : "") + "\n" + pad + "}\n";
  Add(env, r, 64, {init});
  if (carry_tid && (open_shapes_ || !kUnchainedDynamicLoopTaskIdOpen || chained)) {
    env.far_tids.push_back(out_tid);  // for later deps
  }
  return text;
}

// A TaskId made in one block -- carried out of a loop (iter arg seeded by task_invalid()),
// yielded by an if's branch, or defined inside a scope -- named in deps=[...] of a call on
// another tensor in a later block (plain, or inside a scope, loop or branch), and kept for
// the deps of later calls.
std::string RandomProgram::CrossBlockTaskId(Env& env, int indent, bool in_loop) {
  const std::string src = Tensor(env, 64);
  if (src.empty()) return "";
  // The call after it touches another tensor, or (related) the one the TaskId's task wrote.
  const bool related = Chance(0.3);
  int use_size = related ? 64 : Chance(0.3) ? 32 : 64;
  std::string use = related ? src : Tensor(env, use_size);
  for (int tries = 0; !related && tries < 4 && (use.empty() || use == src); ++tries) {
    use_size = 64;
    use = Tensor(env, 64);
  }
  const std::string pad = Pad(indent), seed = Fresh("ti"), tid = Fresh("xt"), t = Fresh("tid");
  const std::string v = Fresh("v");
  const bool oe = Chance(0.5);
  const std::string producer =
      "submit " + (oe ? "fill(" + src + ") [oe]" : "mutate(" + src + ") [inout]");
  std::string text;
  switch (Pick(3)) {
    case 0: {  // carried out of a loop
      static const char* kLoops[] = {"for i in range(0, 3)", "for i in parallel(0, n)",
                                     "for i in range(0, n)", "while go"};
      const std::string it = Fresh("lt");
      const int loop = Pick(4);
      // Unless open, a dynamic loop chains its [oe] writes with deps on the previous iteration.
      const bool dep =
          Chance(0.5) || (!open_shapes_ && kUnchainedDynamicLoopTaskIdOpen && loop > 0 && oe);
      text = pad + seed + " = task_invalid()\n" + pad + tid + " = " + kLoops[loop] + " iter(" + it +
             " = " + seed + ") {\n" + pad + "  " + v + ", " + t + " = " + producer +
             (dep ? " deps=[" + it + "]" : "") + "\n" + pad + "  yield " + t + "\n" + pad + "}\n";
      break;
    }
    case 1: {  // yielded by a branch (the other yields task_invalid() or another stream's task)
      const std::string other = Tensor(env, 64), v2 = Fresh("v"), t2 = Fresh("tid");
      text = pad + seed + " = task_invalid()\n" + pad + tid + " = if cond {\n" + pad + "  " + v +
             ", " + t + " = " + producer + "\n" + pad + "  yield " + t + "\n" + pad + "} else {\n";
      if (Chance(0.5)) {
        text += pad + "  " + v2 + ", " + t2 + " = submit consume(" + other + ") [in]\n" + pad +
                "  yield " + t2 + "\n";
      } else {
        text += pad + "  yield " + seed + "\n";
      }
      text += pad + "}\n";
      break;
    }
    default:  // defined inside a scope that has closed at the use
      text = pad + "scope " + (Chance(0.5) ? "auto" : "manual") + " {\n" + pad + "  " + v + ", " +
             tid + " = " + producer + "\n" + pad + "}\n";
  }
  // The use: in this block after the TaskId's one, or in a scope, loop or branch of its own.
  static const char* kWraps[] = {"", "scope auto {", "scope manual {", "for j in range(0, 2) {",
                                 "if cond {"};
  const int wrap = Pick(5);
  Env later = env;
  later.tids.clear();
  const std::string call = CallOn(later, indent + (wrap > 0 ? 1 : 0), in_loop || wrap == 3, use,
                                  use_size, tid);
  text += wrap == 0 ? call : pad + kWraps[wrap] + "\n" + call + pad + "}\n";
  env.far_tids.push_back(tid);
  return text;
}

// A loop (fixed, parallel, symbolic or while) whose body holds a MANUAL scope of calls,
// sometimes between other statements.
std::string RandomProgram::ManualScopeInLoop(Env& env, int depth, int indent, bool hand,
                                             bool in_scope) {
  static const char* kLoops[] = {"for i in range(0, 3)", "for i in parallel(0, n)",
                                 "for i in range(0, n)", "while go"};
  const std::string pad = Pad(indent);
  Env inner = env;
  inner.tids.clear();
  std::string body = Chance(0.5) ? Block(inner, depth + 1, indent + 1, true, hand, in_scope) : "";
  body += ManualScope(inner, indent + 1, true);
  if (Chance(0.5)) body += Block(inner, depth + 1, indent + 1, true, hand, in_scope);
  return pad + kLoops[Pick(4)] + " {\n" + body + pad + "}\n";
}

// Two calls on memref parameters sharing one buffer: overlapping byte ranges (pa/pb, pb/pc,
// pd inside pa, qa/qb at the symbolic offset qoff) or disjoint ones (pa/pc, pd/pc).
std::string RandomProgram::MemrefAlias(Env& env, int indent, bool in_loop) {
  static const char* kPairs[][2] = {{"pa", "pb"}, {"pb", "pa"}, {"pa", "pc"}, {"pb", "pc"},
                                    {"pd", "pa"}, {"pa", "pd"}, {"pd", "pc"}, {"pd", "pb"},
                                    {"qa", "qb"}, {"qb", "qa"}};
  const auto& pair = kPairs[Pick(10)];
  auto size = [](const std::string& p) { return p == "pd" ? 32 : 64; };
  std::string text = CallOn(env, indent, in_loop, pair[0], size(pair[0]));
  return text + CallOn(env, indent, in_loop, pair[1], size(pair[1]));
}

// A 32-float slice of a 64-float tensor, or a create (some manual_dep).
std::string RandomProgram::SliceOrCreate(Env& env, int indent) {
  const std::string pad = Pad(indent);
  if (Chance(0.5)) {
    const std::string src = Tensor(env, 64), s = Fresh("s");
    static const char* kOffsets[] = {"0", "16", "32"};
    Add(env, s, 32, {src});
    return pad + s + " = slice(" + src + ", [32], [" + kOffsets[Pick(3)] + "])\n";
  }
  const std::string c = Fresh("c");
  Add(env, c, 64);
  return pad + c + " = create(f32[64])" + (Chance(0.2) ? " manual_dep" : "") + "\n";
}

// The shapes of issue 10: swapped carried values, a branch rebinding a name without yields,
// a loop writing rows of a carried 2-D tensor at loop-index offsets and yielding it
// unchanged, a helper function (called more than once over a program), a gather, and a
// call that rebinds an existing name (pattern-B reads when inside a loop).
std::string RandomProgram::IssueTenShape(Env& env, int indent) {
  const std::string pad = Pad(indent);
  switch (Pick(6)) {
    case 0: {  // two carried values swapped every iteration
      const std::string t1 = Tensor(env, 64), t2 = Tensor(env, 64);
      if (t1.empty() || t2.empty()) return "";
      const std::string r1 = Fresh("p"), r2 = Fresh("q"), x1 = Fresh("x"), x2 = Fresh("x");
      const std::string w = Fresh("w"), op = Chance(0.5) ? "mutate" : "fill";
      Env inner = env;
      inner.tids.clear();
      Add(env, r1, 64, {t1, t2});
      Add(env, r2, 64, {t1, t2});
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
      Add(env, x, 64, {t, u});
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
      Add(env, h, 64, {t});
      return pad + h + " = helper(" + t + ") [inout]\n";
    }
    case 4: {  // a gather reading a tensor whole (a memref pool's window only when open)
      const std::string t = Tensor(env, 64, !open_shapes_ && kGatherOfMemrefOpen);
      if (t.empty()) return "";
      const std::string g = Fresh("gat");
      Add(env, g, 64);
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
      // Any 64-float name: parameters, branch and loop results, iter args inside their loop
      // (ConvertToSsa gives each read the definition that holds the name at run time).
      if (size != 64) return "";
      if (env.pooled.count(t) != 0 && env.pooled.count(target) == 0) return "";  // keep `pooled` exact
      return pad + target + " = " + (Chance(0.5) ? "mutate(" + t + ") [inout]" : "fill(" + t + ") [oe]") + "\n";
    }
  }
}

// One kernel call on a tensor of `env`, sometimes a submit, sometimes with user deps.
std::string RandomProgram::Call(Env& env, int indent, bool in_loop) {
  const int size = Chance(0.33) ? 32 : 64;
  const std::string t = Tensor(env, size);
  if (t.empty()) return "";
  return CallOn(env, indent, in_loop, t, size);
}

// One kernel call on `t` (`size` floats): fill, consume or mutate, sometimes a submit (its
// TaskId joins env.tids); deps on `extra_dep` if given, sometimes on a TaskId of this block
// and sometimes on one from another block.
std::string RandomProgram::CallOn(Env& env, int indent, bool in_loop, const std::string& t,
                                  int size, const std::string& extra_dep) {
  static const char* kOps[] = {"fill", "consume", "mutate", "consume", "fill"};
  const std::string op = kOps[Pick(5)];
  std::string dir = op == "consume" ? "in" : "inout";
  if (op == "fill" && (in_loop ? Chance(0.5) : Chance(0.67))) dir = "oe";
  std::vector<std::string> deps;
  if (!extra_dep.empty()) deps.push_back(extra_dep);
  if (!env.tids.empty() && Chance(0.3)) {
    deps.push_back(env.tids[static_cast<size_t>(Pick(static_cast<int>(env.tids.size())))]);
  }
  if (!env.far_tids.empty() && Chance(0.15)) {
    deps.push_back(env.far_tids[static_cast<size_t>(Pick(static_cast<int>(env.far_tids.size())))]);
  }
  std::string dep_text;
  for (const std::string& d : deps) dep_text += (dep_text.empty() ? " deps=[" : ", ") + d;
  if (!dep_text.empty()) dep_text += "]";
  const std::string v = Fresh("v"), kernel = op + (size == 32 ? "32" : "");
  Add(env, v, size, {t});
  std::string lhs = v;
  if (Chance(0.4)) {
    const std::string tid = Fresh("tid");
    env.tids.push_back(tid);
    lhs += ", " + tid + " = submit";
  } else {
    lhs += " =";
  }
  return Pad(indent) + lhs + " " + kernel + "(" + t + ") [" + dir + "]" + dep_text + "\n";
}

}  // namespace depgraph::testing
