// The three depir programs of spec §5.3 and one using every construct, shared by the tests.
#pragma once

namespace depgraph::passes::testing {

inline constexpr const char* kExampleT62 = R"(kernel fill(out t: f32[32]) -> t
kernel consume_pair(in manual_value: f32[32], in local_value: f32[32]) -> local_value

orch main(scratch: f32[64]) hand {
  scope manual {
    manual_view = slice(scratch, [32], [0])
    manual_produced = fill(manual_view) [oe]
  }
  scope auto {
    local_view = slice(scratch, [32], [32])
    local_produced, _local_tid = submit fill(local_view) [oe]
    out, _ = submit consume_pair(manual_produced, local_produced) [in, in]
  }
  return out
}

run analyze
expect consume_pair#1 edges=[_local_tid] dirs=[in, nodep] mark
expect fill#1 edges=[] dirs=[oe]
expect scope#1 manual
expect scope#2 auto
expect mat main "MANUAL{ fill } AUTO{ fill consume_pair }"
)";

inline constexpr const char* kExampleT34 = R"(kernel fill(out t: f32[64]) -> t
kernel consume(in x: f32[64]) -> x

orch main(scratch: f32[64]) {                       // default mode: virtual whole-body region
  carried = scratch
  last_tid = task_invalid()
  carried, last_tid = for _i in range(0, 4) iter(carried = carried, last_tid = last_tid) {
    carried, last_tid = submit fill(carried) [inout]
    yield carried, last_tid
  }
  out = consume(carried) [in]
  return out
}

run analyze
expect consume#1 edges=[last_tid@4] dirs=[nodep] mark    // @4 = the loop return var
expect fill#1 edges=[] dirs=[inout]
expect func main layer_manual
expect mat main "MANUAL{ range{ fill } consume }"
)";

inline constexpr const char* kExampleT46 = R"(kernel fill(out t: f32[64]) -> t
kernel consume(in x: f32[64]) -> x

orch main(scratch: f32[64]) hand {
  scope auto {
    tids = array(4)
    for n in parallel(0, 4) {
      _produced, producer_tid = submit fill(scratch) [oe]
      tids = aset(tids, n, producer_tid)
    }
    buf = array(4)
    buf = aset(buf, 0, aget(tids, 0))
    buf = aset(buf, 1, aget(tids, 1))
    buf = aset(buf, 2, aget(tids, 2))
    buf = aset(buf, 3, aget(tids, 3))
    out, _ = submit consume(scratch) [in] deps=[buf]
  }
  return out
}

run analyze
expect consume#1 edges=[] dirs=[nodep] nomark udeps=[buf]
expect scope#1 auto
)";

/// A program using every depir construct (not a spec case).
inline constexpr const char* kEverything = R"(kernel fill(out t: f32[64]) -> t
kernel fill_pair(out a: f32[64], out b: f32[64]) -> a, b
kernel mutate(inout x: f32[64] memref(shared_ddr, 128, 256)) -> x
kernel view_k(in v: bf16[16, 32] view(stride=[64, 1], ND, valid=[15, 32], pad=zero)) -> v
kernel nz(in v: f16[16, 16] view(stride=[], NZ)) -> v

orch main(scratch: f32[64], src: f32[4, 16], index: i32[4, 8], n: index, cond: bool, t0: task_id, ts: task_id[2]) hand layer_manual {
  scope auto candidate {
    temp = create(f32[64]) manual_dep
    a, b = fill_pair(temp, scratch) [oe, oe]
    g: f32[4, 8] = dynamic gather(src, index)
    top: f32[32] view(stride=[1], ND) = slice(scratch, [32], [0])
    g2 = gather_mask(src, index)
    s = slice(scratch, [32], [n])
    asm = assemble(scratch, s)
    x, tid = submit fill(s) [oe] deps=[t0, ts] early edges=[t0] mark
    c = while cond iter(acc = x) {
      acc = mutate(acc) [inout] edges=[]
      yield acc
    }
    sel = if cond {
      yield a
    } else {
      yield b
    }
    if cond {
      eval fill(scratch) [nodep]
    }
    d = task_dummy(deps=[tid, t0])
    arr = array(2)
    arr = aset(arr, 0, d)
    arr = aset(arr, 1, aget(ts, n))
    k = aget(arr, 1)
    for i in parallel(n, 64, 16) {
      y = fill(scratch) [scalar] edges=[tid@1, x@1]
    }
  }
  scope manual {
    r = for j in range(0, n, 2) iter(z = scratch) {
      z2, zt = submit fill(z) [out]
      yield z2
    }
  }
  return r, sel
}

orch second() {
  return
}

run analyze debug n=4
expect fill#2 edges=[tid@1] dirs=[oe] udeps=[] "free text" key="quoted \"x\""
expect scope#3 manual
expect stderr "fallback"
expect func second unchanged
)";

}  // namespace depgraph::passes::testing
