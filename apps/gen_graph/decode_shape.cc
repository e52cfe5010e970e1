#include "decode_shape.h"

#include <array>
#include <vector>

#include "seeded_rng.h"

namespace gen_graph {

namespace {

// Kernel ids of the decode kernels (the name map of a real run would name them).
enum Kernel : int32_t {
  kRmsNorm = 0,
  kQkvProj = 1,
  kKvWrite = 2,
  kAttnCube = 3,
  kAttnVec = 4,
  kOProj = 5,
  kGateUp = 6,
  kSwiGlu = 7,
  kDownProj = 8,
  kEmbed = 9,
  kLmHead = 10,
  kSample = 11,
};

// Rings: step-level tasks, layer tasks (and allocations), attention (an inner scope).
constexpr uint32_t kStepRing = 0;
constexpr uint32_t kLayerRing = 1;
constexpr uint32_t kAttnRing = 2;

constexpr int kQkvTiles = 4;
constexpr int kAttnTasks = 8;   // head groups
constexpr int kOChunks = 4;     // each reads two head groups
constexpr int kFfnTiles = 8;
constexpr int kDownChunks = 8;
constexpr int kLmTiles = 8;
constexpr int kScratchSlots = 4;  // layer scratch is recycled through this many slots
constexpr int64_t kMaxContext = 131072;
constexpr int64_t kBlockTable = 64;

struct DecodeConfig {
  int layers = 32;
  int64_t hidden = 4096;
  int64_t kv_dim = 512;
  int64_t ffn = 16384;
  int64_t vocab = 151936;
  int64_t context_start = 1024;
  int32_t attn_blocks = 24;
  int32_t matmul_blocks = 4;
  int64_t qkv() const { return hidden + 2 * kv_dim; }
};

DecodeConfig DrawConfig(SeededRng& rng) {
  static constexpr int64_t kHidden[] = {2048, 3072, 4096, 5120, 7168};
  static constexpr int64_t kVocab[] = {32000, 65536, 129280, 151936};
  static constexpr int32_t kAttnBlocks[] = {16, 24, 32};
  DecodeConfig c;
  c.layers = static_cast<int>(rng.Between(24, 40));
  c.hidden = kHidden[rng.Below(std::size(kHidden))];
  c.kv_dim = c.hidden / (rng.Chance(1, 2) ? 4 : 8);
  c.ffn = c.hidden * (rng.Chance(1, 2) ? 3 : 4);
  c.vocab = kVocab[rng.Below(std::size(kVocab))];
  c.context_start = rng.Between(128, 4096);
  c.attn_blocks = kAttnBlocks[rng.Below(std::size(kAttnBlocks))];
  c.matmul_blocks = static_cast<int32_t>(rng.Between(2, 8));
  return c;
}

// Bump allocator for device addresses: weights low, activations in a high arena.
class AddressSpace {
 public:
  explicit AddressSpace(int64_t base) : next_(base) {}
  int64_t Take(int64_t bytes) {
    const int64_t addr = next_;
    next_ += (bytes + 511) / 512 * 512;
    return addr;
  }

 private:
  int64_t next_;
};

int64_t Bytes(DType dtype, int64_t numel) { return numel * depgraph::DTypeByteSize(dtype); }

// An external buffer (weights, caches, host-provided inputs): no owner, never re-created.
TrackedBuffer External(SeededRng& rng, AddressSpace& space, DType dtype, int64_t numel,
                       uint32_t window) {
  TrackedBuffer buffer;
  buffer.tensor.id = rng.NonZeroId();
  buffer.tensor.dtype = dtype;
  buffer.tensor.numel = numel;
  buffer.tensor.buffer_addr = space.Take(Bytes(dtype, numel));
  buffer.window = window;
  return buffer;
}

// Weights and caches of one model layer; shared by every step.
struct LayerWeights {
  TrackedBuffer norm1, wqkv, sqkv, wo, norm2, wgu, sgu, wd, k_cache, v_cache;
};

// Activations of one layer instance (one layer in one step).
struct LayerScratch {
  TaskId alloc_scratch = 0;   // owns qkv, attn_out, act
  TaskId alloc_residual = 0;  // owns h_attn, h_out (the INOUT accumulation targets)
  TrackedBuffer xn, qkv, attn_out, h_attn, xn2, act, h_out;
};

class DecodeGenerator {
 public:
  DecodeGenerator(uint64_t seed, GraphBuilder* builder)
      : rng_(seed), b_(*builder), weights_space_(0x20000000), config_(DrawConfig(rng_)) {}

  void Run();

 private:
  void Step(int64_t step);
  // Runs one layer reading the residual `h_in`; returns the layer's output residual.
  TrackedBuffer* Layer(int layer, int64_t position, TrackedBuffer* h_in);
  // Fresh tensor in the current scratch slot (address reused every kScratchSlots layers).
  void Fresh(TrackedBuffer* buffer, DType dtype, int64_t numel, AddressSpace& slot,
             int64_t version, bool has_owner, TaskId owner);
  GenView Row(const TrackedBuffer& buffer) const {
    return GenView::Matrix(buffer.tensor.dtype, 1, buffer.tensor.numel, buffer.tensor.numel,
                           0, 0);
  }

  SeededRng rng_;
  GraphBuilder& b_;
  AddressSpace weights_space_;
  DecodeConfig config_;
  std::vector<LayerWeights> weights_;
  TrackedBuffer tokens_, embedding_, final_norm_, lm_weight_, block_table_, context_lens_,
      slot_mapping_;
  std::array<LayerScratch, 2> scratch_;  // this layer and the previous one
  TrackedBuffer h0_, hn_, logits_;
  int64_t layer_instance_ = 0;
  TaskId last_kv_write_ = 0;
  bool has_kv_write_ = false;
};

void DecodeGenerator::Fresh(TrackedBuffer* buffer, DType dtype, int64_t numel,
                            AddressSpace& slot, int64_t version, bool has_owner,
                            TaskId owner) {
  buffer->tensor.id = rng_.NonZeroId();
  buffer->tensor.dtype = dtype;
  buffer->tensor.numel = numel;
  buffer->tensor.buffer_addr = slot.Take(Bytes(dtype, numel));
  buffer->tensor.version = version;
  buffer->has_owner = has_owner;
  buffer->owner = owner;
  buffer->listed = false;
  buffer->window = 32;
  buffer->writers.clear();
}

void DecodeGenerator::Run() {
  const DecodeConfig& c = config_;
  const DType bf16 = DType::kBFloat16;
  const DType fp32 = DType::kFloat32;
  const DType i32 = DType::kInt32;
  AddressSpace& w = weights_space_;
  tokens_ = External(rng_, w, i32, 1, 1);
  embedding_ = External(rng_, w, bf16, c.vocab * c.hidden, 1);
  final_norm_ = External(rng_, w, bf16, c.hidden, 1);
  lm_weight_ = External(rng_, w, bf16, c.vocab * c.hidden, 1);
  block_table_ = External(rng_, w, i32, kBlockTable, 1);
  context_lens_ = External(rng_, w, i32, 1, 1);
  slot_mapping_ = External(rng_, w, i32, 1, 1);
  weights_.resize(static_cast<size_t>(c.layers));
  for (LayerWeights& lw : weights_) {
    lw.norm1 = External(rng_, w, bf16, c.hidden, 1);
    lw.wqkv = External(rng_, w, bf16, c.qkv() * c.hidden, 1);
    lw.sqkv = External(rng_, w, fp32, c.qkv(), 1);
    lw.wo = External(rng_, w, bf16, c.hidden * c.hidden, 1);
    lw.norm2 = External(rng_, w, bf16, c.hidden, 1);
    lw.wgu = External(rng_, w, bf16, 2 * c.ffn * c.hidden, 1);
    lw.sgu = External(rng_, w, fp32, 2 * c.ffn, 1);
    lw.wd = External(rng_, w, bf16, c.hidden * c.ffn, 1);
    // Only the newest cache write is tracked: each step writes one new position.
    lw.k_cache = External(rng_, w, bf16, kMaxContext * c.kv_dim, 1);
    lw.v_cache = External(rng_, w, bf16, kMaxContext * c.kv_dim, 1);
  }
  for (int64_t step = 0; !b_.full(); ++step) Step(step);
}

void DecodeGenerator::Step(int64_t step) {
  const DecodeConfig& c = config_;
  const DType bf16 = DType::kBFloat16;
  const int64_t position = (c.context_start + step) % (kMaxContext - 1);
  AddressSpace step_space(0x7F0000000000 + (step % 2) * 0x10000000);

  // Embedding lookup of the token the previous step sampled.
  b_.BeginTask(kStepRing, -1, kEmbed, -1, 1);
  b_.Read(tokens_, GenView::Run(DType::kInt32, 1, 0));
  const int64_t token = static_cast<int64_t>(rng_.Below(static_cast<uint64_t>(c.vocab)));
  b_.Read(embedding_, GenView::Matrix(bf16, 1, c.hidden, c.hidden, token, 0));
  Fresh(&h0_, bf16, c.hidden, step_space, step / 2, false, 0);
  b_.Create(h0_);
  b_.EndTask();

  TrackedBuffer* h = &h0_;
  for (int layer = 0; layer < c.layers && !b_.full(); ++layer) {
    h = Layer(layer, position, h);
  }
  if (b_.full()) return;

  b_.BeginTask(kStepRing, -1, kRmsNorm, -1, 1);
  b_.Read(*h, Row(*h));
  b_.Read(final_norm_, Row(final_norm_));
  Fresh(&hn_, bf16, c.hidden, step_space, step / 2, false, 0);
  b_.Create(hn_);
  b_.EndTask();

  const TaskId alloc_logits = b_.NewId(kStepRing);
  Fresh(&logits_, DType::kFloat32, c.vocab, step_space, step / 2, true, alloc_logits);
  const int64_t tile = c.vocab / kLmTiles;
  for (int t = 0; t < kLmTiles && !b_.full(); ++t) {
    b_.BeginTask(kStepRing, kLmHead, -1, -1, c.matmul_blocks);
    b_.Read(hn_, Row(hn_));
    b_.Read(lm_weight_, GenView::Matrix(bf16, tile, c.hidden, c.hidden, t * tile, 0));
    b_.Overwrite(logits_, GenView::Matrix(DType::kFloat32, 1, tile, c.vocab, 0, t * tile));
    b_.EndTask();
  }
  if (b_.full()) return;
  b_.BeginTask(kStepRing, -1, kSample, -1, 1);
  b_.Read(logits_, Row(logits_));
  b_.Modify(tokens_, GenView::Run(DType::kInt32, 1, 0));
  b_.EndTask();
}

TrackedBuffer* DecodeGenerator::Layer(int layer, int64_t position, TrackedBuffer* h_in) {
  const DecodeConfig& c = config_;
  const DType bf16 = DType::kBFloat16;
  const DType fp32 = DType::kFloat32;
  LayerWeights& lw = weights_[static_cast<size_t>(layer)];
  LayerScratch& s = scratch_[static_cast<size_t>(layer_instance_ % 2)];
  const int64_t slot = layer_instance_ % kScratchSlots;
  const int64_t version = layer_instance_ / kScratchSlots;
  ++layer_instance_;
  AddressSpace space(0x7F8000000000 + slot * 0x4000000);

  s.alloc_scratch = b_.NewId(kLayerRing);
  s.alloc_residual = b_.NewId(kLayerRing);
  const int64_t qkv_n = c.qkv();
  Fresh(&s.qkv, bf16, qkv_n, space, version, true, s.alloc_scratch);
  Fresh(&s.attn_out, bf16, c.hidden, space, version, true, s.alloc_scratch);
  Fresh(&s.act, bf16, c.ffn, space, version, true, s.alloc_scratch);
  Fresh(&s.h_attn, bf16, c.hidden, space, version, true, s.alloc_residual);
  Fresh(&s.h_out, bf16, c.hidden, space, version, true, s.alloc_residual);
  const bool fence_attention = rng_.Chance(1, 2);
  const int partial_down = rng_.Chance(1, 8) ? static_cast<int>(rng_.Between(1, kDownChunks - 2))
                                             : -1;

  // Input norm.
  b_.BeginTask(kLayerRing, -1, kRmsNorm, -1, 1);
  b_.Read(*h_in, Row(*h_in));
  b_.Read(lw.norm1, Row(lw.norm1));
  Fresh(&s.xn, bf16, c.hidden, space, version, false, 0);
  b_.Create(s.xn);
  b_.EndTask();

  // Fused q/k/v projection, split in column tiles.
  const int64_t qkv_tile = qkv_n / kQkvTiles;
  for (int i = 0; i < kQkvTiles; ++i) {
    b_.BeginTask(kLayerRing, kQkvProj, -1, -1, c.matmul_blocks);
    b_.Read(s.xn, Row(s.xn));
    b_.Read(lw.wqkv, GenView::Matrix(bf16, qkv_tile, c.hidden, c.hidden, i * qkv_tile, 0));
    b_.Read(lw.sqkv, GenView::Run(fp32, qkv_tile, i * qkv_tile));
    b_.Overwrite(s.qkv, GenView::Matrix(bf16, 1, qkv_tile, qkv_n, 0, i * qkv_tile));
    b_.EndTask();
  }

  // Rotary embedding of k and the cache write at this step's position.
  const TaskId kv_write = b_.BeginTask(kLayerRing, -1, kKvWrite, -1, 1);
  b_.Read(s.qkv, GenView::Matrix(bf16, 1, 2 * c.kv_dim, qkv_n, 0, c.hidden));
  b_.Read(slot_mapping_, GenView::Run(DType::kInt32, 1, 0));
  b_.Modify(lw.k_cache, GenView::Matrix(bf16, 1, c.kv_dim, c.kv_dim, position, 0));
  b_.Modify(lw.v_cache, GenView::Matrix(bf16, 1, c.kv_dim, c.kv_dim, position, 0));
  if (has_kv_write_) b_.Depend(last_kv_write_);  // cache-manager ordering (a shortcut)
  b_.EndTask();

  // Paged attention, one task per head group, over the whole cached context.
  const int64_t head_group = c.hidden / kAttnTasks;
  const GenView cache_view = GenView::Matrix(bf16, position + 1, c.kv_dim, c.kv_dim, 0, 0);
  for (int j = 0; j < kAttnTasks; ++j) {
    b_.BeginTask(kAttnRing, kAttnCube, kAttnVec, kAttnVec, c.attn_blocks);
    b_.Read(s.qkv, GenView::Matrix(bf16, 1, head_group, qkv_n, 0, j * head_group));
    b_.Read(lw.k_cache, cache_view);
    b_.Read(lw.v_cache, cache_view);
    b_.Read(block_table_, GenView::Matrix(DType::kInt32, 1, kBlockTable, kBlockTable, 0, 0));
    b_.Read(context_lens_, GenView::Run(DType::kInt32, 1, 0));
    b_.Overwrite(s.attn_out, GenView::Matrix(bf16, 1, head_group, c.hidden, 0, j * head_group));
    if (j == 0 && fence_attention && has_kv_write_) b_.Depend(last_kv_write_);
    b_.EndTask();
  }
  last_kv_write_ = kv_write;
  has_kv_write_ = true;

  // o_proj: the first chunk writes h_attn = h_in + partial, the rest accumulate (INOUT).
  const int64_t o_chunk = c.hidden / kOChunks;
  for (int k = 0; k < kOChunks; ++k) {
    b_.BeginTask(kLayerRing, kOProj, -1, -1, c.matmul_blocks);
    b_.Read(s.attn_out, GenView::Matrix(bf16, 1, o_chunk, c.hidden, 0, k * o_chunk));
    b_.Read(lw.wo, GenView::Matrix(bf16, c.hidden, o_chunk, c.hidden, 0, k * o_chunk));
    if (k == 0) {
      b_.Read(*h_in, Row(*h_in));
      b_.Overwrite(s.h_attn, Row(s.h_attn));
    } else {
      b_.Modify(s.h_attn, Row(s.h_attn));
    }
    b_.EndTask();
  }

  // Post-attention norm.
  b_.BeginTask(kLayerRing, -1, kRmsNorm, -1, 1);
  b_.Read(s.h_attn, Row(s.h_attn));
  b_.Read(lw.norm2, Row(lw.norm2));
  Fresh(&s.xn2, bf16, c.hidden, space, version, false, 0);
  b_.Create(s.xn2);
  b_.EndTask();

  // Gate/up projection with fused SwiGLU, split in tiles of the intermediate size.
  const int64_t ffn_tile = c.ffn / kFfnTiles;
  for (int f = 0; f < kFfnTiles; ++f) {
    b_.BeginTask(kLayerRing, kGateUp, kSwiGlu, kSwiGlu, c.matmul_blocks);
    b_.Read(s.xn2, Row(s.xn2));
    b_.Read(lw.wgu, GenView::Matrix(bf16, 2 * ffn_tile, c.hidden, c.hidden, 2 * f * ffn_tile, 0));
    b_.Read(lw.sgu, GenView::Run(fp32, 2 * ffn_tile, 2 * f * ffn_tile));
    b_.Overwrite(s.act, GenView::Matrix(bf16, 1, ffn_tile, c.ffn, 0, f * ffn_tile));
    b_.EndTask();
  }

  // Down projection: h_out = h_attn + sum over chunks, accumulated in place (INOUT chain).
  // Sometimes one chunk updates only half the row, which vetoes the dataflow proof nearby.
  const int64_t down_chunk = c.ffn / kDownChunks;
  for (int d = 0; d < kDownChunks; ++d) {
    b_.BeginTask(kLayerRing, kDownProj, -1, -1, c.matmul_blocks);
    b_.Read(s.act, GenView::Matrix(bf16, 1, down_chunk, c.ffn, 0, d * down_chunk));
    b_.Read(lw.wd, GenView::Matrix(bf16, c.hidden, down_chunk, c.ffn, 0, d * down_chunk));
    if (d == 0) {
      b_.Read(s.h_attn, Row(s.h_attn));
      b_.Overwrite(s.h_out, Row(s.h_out));
    } else if (d == partial_down) {
      b_.Modify(s.h_out, GenView::Matrix(bf16, 1, c.hidden / 2, c.hidden, 0, 0));
    } else {
      b_.Modify(s.h_out, Row(s.h_out));
    }
    b_.EndTask();
  }
  return &s.h_out;
}

}  // namespace

void GenerateDecode(uint64_t seed, GraphBuilder* builder) {
  DecodeGenerator generator(seed, builder);
  generator.Run();
}

}  // namespace gen_graph
