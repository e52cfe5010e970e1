#include "simple_shapes.h"

#include <algorithm>
#include <vector>

#include "seeded_rng.h"

namespace gen_graph {

namespace {

constexpr uint32_t kRing = 1;

// Kernel slots alternating between cube and vector kernels, as real graphs do.
void KernelFor(uint64_t index, int32_t* aic, int32_t* aiv) {
  if (index % 2 == 0) {
    *aic = static_cast<int32_t>(index % 4);
    *aiv = -1;
  } else {
    *aic = -1;
    *aiv = static_cast<int32_t>(index % 4);
  }
}

// Fills `buffer` with a fresh tensor of `numel` FLOAT32 elements at `addr`.
void FreshTensor(SeededRng& rng, TrackedBuffer* buffer, int64_t numel, int64_t addr) {
  buffer->tensor.id = rng.NonZeroId();
  buffer->tensor.dtype = DType::kFloat32;
  buffer->tensor.numel = numel;
  buffer->tensor.buffer_addr = addr;
  buffer->tensor.version = 0;
  buffer->has_owner = false;
  buffer->owner = 0;
  buffer->listed = false;
  buffer->writers.clear();
}

GenView Whole(const TrackedBuffer& buffer) {
  return GenView::Run(buffer.tensor.dtype, buffer.tensor.numel, 0);
}

}  // namespace

void GenerateChain(uint64_t seed, GraphBuilder* builder) {
  SeededRng rng(seed);
  GraphBuilder& b = *builder;
  constexpr uint64_t kBack = 16;
  std::vector<TaskId> ids(kBack + 1);
  std::vector<TrackedBuffer> outputs(kBack + 1);
  const int64_t numel = 256 << rng.Below(5);
  for (uint64_t i = 0; !b.full(); ++i) {
    int32_t aic, aiv;
    KernelFor(i, &aic, &aiv);
    const TaskId id = b.BeginTask(kRing, aic, aiv, -1, 1);
    if (i > 0) b.Read(outputs[(i - 1) % (kBack + 1)], Whole(outputs[(i - 1) % (kBack + 1)]));
    const uint64_t reach = std::min<uint64_t>(i, kBack);
    if (reach >= 2 && rng.Chance(1, 2)) {
      b.Depend(ids[(i - static_cast<uint64_t>(rng.Between(2, static_cast<int64_t>(reach)))) %
                   (kBack + 1)]);
    }
    if (reach >= 2 && rng.Chance(1, 4)) {
      const uint64_t k = static_cast<uint64_t>(rng.Between(2, static_cast<int64_t>(reach)));
      TrackedBuffer& skip = outputs[(i - k) % (kBack + 1)];
      b.Read(skip, Whole(skip));
    }
    TrackedBuffer& out = outputs[i % (kBack + 1)];
    FreshTensor(rng, &out, numel, 0x7F8000000000 + static_cast<int64_t>(i % 1024) * numel * 4);
    b.Create(out);
    b.EndTask();
    ids[i % (kBack + 1)] = id;
  }
}

void GenerateWide(uint64_t seed, uint64_t tasks, GraphBuilder* builder) {
  SeededRng rng(seed);
  GraphBuilder& b = *builder;
  const uint64_t levels = static_cast<uint64_t>(rng.Between(4, 8));
  const uint64_t width = std::max<uint64_t>(1, tasks / levels);
  const int64_t numel = 1024;
  std::vector<TaskId> prev_ids, ids;
  std::vector<TrackedBuffer> prev_out, out;
  TrackedBuffer hub_out;
  TaskId prev_hub = 0;
  bool has_prev_hub = false;
  int64_t addr = 0x7F8000000000;
  for (uint64_t level = 0; !b.full(); ++level) {
    // The hub: fan-in from the whole previous level, fan-out to the whole level.
    const TaskId hub = b.BeginTask(kRing, -1, 0, -1, 1);
    for (TaskId pred : prev_ids) b.Depend(pred);
    FreshTensor(rng, &hub_out, numel, addr);
    addr += numel * 4;
    b.Create(hub_out);
    b.EndTask();
    ids.clear();
    out.clear();
    out.resize(width);
    for (uint64_t i = 0; i < width && !b.full(); ++i) {
      const TaskId id = b.BeginTask(kRing, 1, -1, -1, static_cast<int32_t>(rng.Between(1, 4)));
      b.Read(hub_out, Whole(hub_out));
      if (!prev_out.empty()) {
        for (int k = 0; k < 2; ++k) {
          TrackedBuffer& in = prev_out[rng.Below(prev_out.size())];
          b.Read(in, Whole(in));
        }
        if (has_prev_hub && rng.Chance(1, 8)) b.Depend(prev_hub);
      }
      FreshTensor(rng, &out[i], numel, addr);
      addr += numel * 4;
      b.Create(out[i]);
      b.EndTask();
      ids.push_back(id);
    }
    prev_ids.swap(ids);
    prev_out.swap(out);
    prev_hub = hub;
    has_prev_hub = true;
  }
}

void GenerateRandom(uint64_t seed, GraphBuilder* builder) {
  SeededRng rng(seed);
  GraphBuilder& b = *builder;
  constexpr uint64_t kWindow = 256;
  constexpr uint64_t kMaxLayer = 64;
  constexpr uint64_t kRegion = 4096;
  constexpr uint64_t kKeep = kWindow + kMaxLayer;
  std::vector<TaskId> ids(kKeep);
  std::vector<TrackedBuffer> outputs(kKeep);
  TaskId alloc = 0;
  const int64_t numel = 512;
  uint64_t index = 0;
  while (!b.full()) {
    const uint64_t layer_start = index;
    const uint64_t layer_width = static_cast<uint64_t>(rng.Between(16, kMaxLayer));
    for (uint64_t t = 0; t < layer_width && !b.full(); ++t, ++index) {
      if (index % kRegion == 0) alloc = b.NewId(kRing);
      int32_t aic, aiv;
      KernelFor(index, &aic, &aiv);
      const TaskId id = b.BeginTask(kRing, aic, aiv, -1, 1);
      const uint64_t reach = std::min(layer_start, kWindow);
      if (reach > 0) {
        const int64_t preds = rng.Between(1, 3);
        for (int64_t p = 0; p < preds; ++p) {
          const uint64_t j = layer_start - 1 - rng.Below(reach);
          if (rng.Chance(3, 4)) {
            TrackedBuffer& in = outputs[j % kKeep];
            b.Read(in, Whole(in));
          } else {
            b.Depend(ids[j % kKeep]);
          }
        }
      }
      TrackedBuffer& out = outputs[index % kKeep];
      FreshTensor(rng, &out, numel,
                  0x7F8000000000 + static_cast<int64_t>(index % kRegion) * numel * 4);
      out.has_owner = true;
      out.owner = alloc;
      out.window = 1;
      b.Overwrite(out, Whole(out));
      b.EndTask();
      ids[index % kKeep] = id;
    }
  }
}

void GenerateChainToLast(uint64_t seed, uint64_t tasks, GraphBuilder* builder) {
  SeededRng rng(seed);
  GraphBuilder& b = *builder;
  std::vector<TaskId> ids;
  TrackedBuffer previous, output;
  const int64_t numel = 256;
  for (uint64_t i = 0; !b.full(); ++i) {
    int32_t aic, aiv;
    KernelFor(i, &aic, &aiv);
    const TaskId id = b.BeginTask(kRing, aic, aiv, -1, 1);
    if (i > 0) b.Read(previous, Whole(previous));
    if (i + 1 == tasks) {
      for (uint64_t k = 0; k + 1 < i; ++k) b.Depend(ids[k]);  // i - 1 is already a row
    }
    FreshTensor(rng, &output, numel, 0x7F8000000000 + static_cast<int64_t>(i % 1024) * numel * 4);
    b.Create(output);
    b.EndTask();
    std::swap(previous, output);
    if (i + 1 < tasks) ids.push_back(id);
  }
}

void GenerateHub(uint64_t seed, GraphBuilder* builder) {
  SeededRng rng(seed);
  GraphBuilder& b = *builder;
  constexpr uint64_t kBack = 64;
  std::vector<TrackedBuffer> outputs(kBack + 1);
  TrackedBuffer hub_out;
  const int64_t numel = 512;
  for (uint64_t i = 0; !b.full(); ++i) {
    int32_t aic, aiv;
    KernelFor(i, &aic, &aiv);
    b.BeginTask(kRing, aic, aiv, -1, 1);
    if (i > 0) {
      b.Read(hub_out, Whole(hub_out));
      TrackedBuffer& previous = outputs[(i - 1) % (kBack + 1)];
      if (i > 1 && rng.Chance(1, 2)) b.Read(previous, Whole(previous));
      const uint64_t reach = std::min<uint64_t>(i - 1, kBack);
      if (reach >= 2 && rng.Chance(1, 4)) {
        const auto back = static_cast<uint64_t>(rng.Between(2, static_cast<int64_t>(reach)));
        TrackedBuffer& in = outputs[(i - back) % (kBack + 1)];
        b.Read(in, Whole(in));
      }
    }
    TrackedBuffer& out = i == 0 ? hub_out : outputs[i % (kBack + 1)];
    FreshTensor(rng, &out, numel, 0x7F8000000000 + static_cast<int64_t>(i % 4096) * numel * 4);
    b.Create(out);
    b.EndTask();
  }
}

void GenerateDense(uint64_t seed, GraphBuilder* builder) {
  SeededRng rng(seed);
  GraphBuilder& b = *builder;
  constexpr uint64_t kBack = 64;
  constexpr int kReads = 12;
  constexpr int kWaits = 4;
  std::vector<TaskId> ids(kBack);
  std::vector<TrackedBuffer> outputs(kBack);
  const int64_t numel = 256;
  for (uint64_t i = 0; !b.full(); ++i) {
    int32_t aic, aiv;
    KernelFor(i, &aic, &aiv);
    const TaskId id = b.BeginTask(kRing, aic, aiv, -1, 1);
    const uint64_t reach = std::min<uint64_t>(i, kBack);
    if (reach > 0) {
      for (int k = 0; k < kReads; ++k) {
        TrackedBuffer& in = outputs[(i - 1 - rng.Below(reach)) % kBack];
        b.Read(in, Whole(in));
      }
      for (int k = 0; k < kWaits; ++k) b.Depend(ids[(i - 1 - rng.Below(reach)) % kBack]);
    }
    TrackedBuffer& out = outputs[i % kBack];
    FreshTensor(rng, &out, numel, 0x7F8000000000 + static_cast<int64_t>(i % 4096) * numel * 4);
    b.Create(out);
    b.EndTask();
    ids[i % kBack] = id;
  }
}

}  // namespace gen_graph
