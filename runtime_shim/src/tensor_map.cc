#include "tensor_map.h"

namespace depgraph::shim {

void TensorMap::Insert(uint64_t addr, const ViewShape& view, uint64_t producer,
                       uint32_t producer_arg) {
  bool inserted = false;
  const uint32_t index =
      lists_by_addr_.FindOrInsert(addr, static_cast<uint32_t>(lists_.size()), &inserted);
  if (inserted) lists_.emplace_back();
  List& list = lists_[index];
  if (list.dead >= 16 && list.dead * 2 >= list.keys.size()) Compact(list);
  list.keys.push_back(Key{view.start, view.start + view.extent, view.version, false});
  list.entries.push_back(Entry{view, producer, producer_arg});
  ++live_;
}

void TensorMap::Compact(List& list) {
  size_t out = 0;
  for (size_t i = 0; i < list.keys.size(); ++i) {
    if (list.keys[i].dead) continue;
    if (out != i) {
      list.keys[out] = list.keys[i];
      list.entries[out] = list.entries[i];
    }
    ++out;
  }
  list.keys.resize(out);
  list.entries.resize(out);
  list.dead = 0;
}

void TensorMap::Clear() {
  lists_by_addr_.Reset();
  lists_.clear();
  live_ = 0;
}

}  // namespace depgraph::shim
