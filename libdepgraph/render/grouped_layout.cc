#include "depgraph/render/grouped_layout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace depgraph {
namespace {

/// A block to place: its size, and where it went (top-left, relative to the content).
struct Item {
  float w = 0, h = 0;
  float x = 0, y = 0;
};

/// A content's items and the pairs between them (item indices; duplicates allowed).
struct Content {
  std::vector<Item> items;
  std::vector<std::pair<uint32_t, uint32_t>> links;
  float w = 0, h = 0;  ///< extent after Arrange
};

/// Places the items of `c` (the method in the header): layers, one barycentre pass, columns
/// cut at the target height, bands wrapped at the target width. O(I log I + L) for I items and
/// L links.
void Arrange(Content& c, const GroupedLayoutOptions& o) {
  const uint32_t n = static_cast<uint32_t>(c.items.size());
  if (n == 0) return;
  // Forward links as CSR both ways.
  std::vector<uint32_t> out_off(n + 1, 0), in_off(n + 1, 0);
  for (auto [a, b] : c.links) {
    if (a < b) ++out_off[a + 1], ++in_off[b + 1];
  }
  for (uint32_t i = 0; i < n; ++i) out_off[i + 1] += out_off[i], in_off[i + 1] += in_off[i];
  std::vector<uint32_t> out(out_off[n]), in(in_off[n]);
  {
    std::vector<uint32_t> fo(out_off.begin(), out_off.end() - 1),
        fi(in_off.begin(), in_off.end() - 1);
    for (auto [a, b] : c.links) {
      if (a < b) out[fo[a]++] = b, in[fi[b]++] = a;
    }
  }
  // Longest path over forward links (index order is a topological order), then as late as
  // possible: just before the earliest successor.
  std::vector<uint32_t> layer(n, 0);
  for (uint32_t a = 0; a < n; ++a) {
    for (uint32_t k = out_off[a]; k < out_off[a + 1]; ++k)
      layer[out[k]] = std::max(layer[out[k]], layer[a] + 1);
  }
  for (uint32_t a = n; a-- > 0;) {
    if (out_off[a] == out_off[a + 1]) continue;
    uint32_t earliest = std::numeric_limits<uint32_t>::max();
    for (uint32_t k = out_off[a]; k < out_off[a + 1]; ++k)
      earliest = std::min(earliest, layer[out[k]]);
    layer[a] = earliest - 1;
  }
  const uint32_t num_layers = *std::max_element(layer.begin(), layer.end()) + 1;
  std::vector<std::vector<uint32_t>> layers(num_layers);
  for (uint32_t i = 0; i < n; ++i) layers[layer[i]].push_back(i);
  // One barycentre pass: by the mean relative place of the predecessors in their layers.
  std::vector<double> rank(n, 0.0);
  for (auto& members : layers) {
    std::vector<double> key(members.size());
    for (size_t k = 0; k < members.size(); ++k) {
      const uint32_t i = members[k];
      double sum = 0;
      uint32_t count = 0;
      for (uint32_t q = in_off[i]; q < in_off[i + 1]; ++q) sum += rank[in[q]], ++count;
      key[k] = count ? sum / count : static_cast<double>(k) / members.size();
    }
    std::vector<uint32_t> idx(members.size());
    std::iota(idx.begin(), idx.end(), 0u);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
    std::vector<uint32_t> sorted(members.size());
    for (size_t k = 0; k < idx.size(); ++k) sorted[k] = members[idx[k]];
    members = std::move(sorted);
    for (size_t k = 0; k < members.size(); ++k) rank[members[k]] = (k + 0.5) / members.size();
  }
  // Gaps grow with the items (a tenth of the largest), so that the arrows between large boxes
  // stay visible at the zoom that shows the boxes; targets from the area.
  float max_w = 0, max_h = 0;
  for (const Item& it : c.items) {
    max_w = std::max(max_w, it.w);
    max_h = std::max(max_h, it.h);
  }
  const float gap_x = std::max(o.column_gap, 0.1f * max_w),
              gap_y = std::max(o.row_gap, 0.1f * max_h);
  double area = 0;
  for (const Item& it : c.items) area += double(it.w + gap_x) * double(it.h + gap_y);
  const double target_h = std::max<double>({max_h, o.min_wrap_height, std::sqrt(area / o.aspect)});
  // Never a band narrower than three of the widest items: a content with one large block and a
  // few nodes around it (a decoder layer around its requests) stays on one row.
  const double target_w =
      std::max<double>({3.0 * max_w, o.min_wrap_width, std::sqrt(area * o.aspect)});
  // Columns (a layer, cut at the target height), then bands.
  struct Column {
    uint32_t begin, end;
    float w, h;
  };
  std::vector<uint32_t> flat;
  std::vector<Column> columns;
  for (const auto& members : layers) {
    Column col{static_cast<uint32_t>(flat.size()), 0, 0, 0};
    for (uint32_t i : members) {
      const Item& it = c.items[i];
      if (flat.size() > col.begin && col.h + gap_y + it.h > target_h) {
        col.end = static_cast<uint32_t>(flat.size());
        columns.push_back(col);
        col = Column{col.end, 0, 0, 0};
      }
      col.h += (flat.size() > col.begin ? gap_y : 0.0f) + it.h;
      col.w = std::max(col.w, it.w);
      flat.push_back(i);
    }
    col.end = static_cast<uint32_t>(flat.size());
    columns.push_back(col);
  }
  // Bands of about equal width: as many as the target width asks for (rounded, so that a grid
  // one column over its target stays one band), filled up to total / bands.
  double total_w = 0;
  for (const Column& col : columns) total_w += col.w + gap_x;
  const double bands = std::max(1.0, std::round(total_w / target_w));
  const double band_limit = std::max<double>(max_w, total_w / bands * 1.02);
  float band_y = 0, content_w = 0;
  size_t k = 0;
  while (k < columns.size()) {
    size_t end = k;
    float band_w = 0, band_h = 0;
    while (end < columns.size()) {
      const float add = (end > k ? gap_x : 0.0f) + columns[end].w;
      if (end > k && band_w + add > band_limit) break;
      band_w += add;
      band_h = std::max(band_h, columns[end].h);
      ++end;
    }
    float x = 0;
    for (size_t col = k; col < end; ++col) {
      const Column& cc = columns[col];
      float y = band_y + (band_h - cc.h) / 2;  // centred in its band
      for (uint32_t f = cc.begin; f < cc.end; ++f) {
        Item& it = c.items[flat[f]];
        it.x = x + (cc.w - it.w) / 2;
        it.y = y;
        y += it.h + gap_y;
      }
      x += cc.w + gap_x;
    }
    content_w = std::max(content_w, band_w);
    band_y += band_h + 2 * gap_y;
    k = end;
  }
  c.w = content_w;
  c.h = band_y - 2 * gap_y;
}

/// A series laid out: its box size and its instances' top-left corners inside it.
struct SeriesLayout {
  uint32_t kind = 0;
  float w = 0, h = 0;
  std::vector<float> ix, iy;
};

/// One level laid out: the items over a range of positions (the root, or an instance's
/// inside): its series, and per item the index of its series or -1 for a node, with its place.
struct LevelLayout {
  Content content;
  std::vector<SeriesLayout> series;
  std::vector<int64_t> item_series;
};

/// The inside of one instance of a kind (laid out once per kind) and its box size.
struct KindLayout {
  bool done = false;
  float w = 0, h = 0;
  LevelLayout inside;
};

class Builder {
 public:
  Builder(const DepGraph& graph, const TaskGrouping& grouping, const GroupedLayoutOptions& o)
      : graph_(graph), grouping_(grouping), o_(o), kinds_(grouping.kinds.size()) {
    const uint32_t n = static_cast<uint32_t>(graph.nodes.size());
    succ_off_.assign(n + 1, 0);
    const std::vector<uint8_t>* inc = o.include;
    auto included = [&](size_t p) {
      return inc == nullptr || inc->empty() || (p < inc->size() && (*inc)[p] != 0);
    };
    for (size_t p = 0; p < graph.pairs.size(); ++p) {
      if (included(p)) ++succ_off_[graph.pairs[p].pred + 1];
    }
    for (uint32_t v = 0; v < n; ++v) succ_off_[v + 1] += succ_off_[v];
    succ_.resize(succ_off_[n]);
    std::vector<uint32_t> fill(succ_off_.begin(), succ_off_.end() - 1);
    for (size_t p = 0; p < graph.pairs.size(); ++p) {
      if (included(p)) succ_[fill[graph.pairs[p].pred]++] = graph.pairs[p].succ;
    }
  }

  GroupedLayout Run() {
    const uint32_t n = static_cast<uint32_t>(graph_.nodes.size());
    GroupedLayout out;
    out.x.assign(n, 0);
    out.y.assign(n, 0);
    const LevelLayout root = LayoutLevel(grouping_.series, 0, n);
    PlaceLevel(root, grouping_.series, 0, n, o_.margin, o_.margin, &out);
    out.width = root.content.w + 2 * o_.margin;
    out.height = root.content.h + 2 * o_.margin;
    return out;
  }

 private:
  /// Adds to `c` a link per included pair with both ends in positions [begin, end) whose ends
  /// fall in different items (`item(pos)`). O(nodes + their pairs).
  template <typename ItemOf>
  void Link(uint32_t begin, uint32_t end, ItemOf item, Content* c) {
    for (uint32_t pos = begin; pos < end; ++pos) {
      const uint32_t node = grouping_.order[pos];
      const uint32_t a = item(pos);
      for (uint32_t k = succ_off_[node]; k < succ_off_[node + 1]; ++k) {
        const uint32_t q = grouping_.position[succ_[k]];
        if (q < begin || q >= end) continue;
        const uint32_t b = item(q);
        if (a != b) c->links.emplace_back(a, b);
      }
    }
  }

  /// The level over positions [base, base + size): the series of `list` (begins relative to
  /// base) as blocks, the other positions as nodes, arranged.
  LevelLayout LayoutLevel(const std::vector<GroupSeries>& list, uint32_t base, uint32_t size) {
    LevelLayout level;
    std::vector<uint32_t> item_of(size);
    size_t s = 0;
    for (uint32_t r = 0; r < size;) {
      const uint32_t item = static_cast<uint32_t>(level.content.items.size());
      if (s < list.size() && list[s].begin == r) {
        const GroupSeries& gs = list[s];
        level.series.push_back(LayoutSeries(gs.kind, gs.count, base + r));
        level.content.items.push_back(Item{level.series.back().w, level.series.back().h});
        level.item_series.push_back(static_cast<int64_t>(s));
        const uint32_t end = r + gs.count * grouping_.kinds[gs.kind].size;
        for (; r < end; ++r) item_of[r] = item;
        ++s;
      } else {
        level.content.items.push_back(Item{o_.node_width, o_.node_height});
        level.item_series.push_back(-1);
        item_of[r++] = item;
      }
    }
    Link(
        base, base + size, [&](uint32_t pos) { return item_of[pos - base]; }, &level.content);
    Arrange(level.content, o_);
    return level;
  }

  /// The series of `count` instances of `kind` whose first node is at position `begin`.
  SeriesLayout LayoutSeries(uint32_t kind, uint32_t count, uint32_t begin) {
    const KindLayout& inside = LayoutKind(kind, begin);
    const uint32_t size = grouping_.kinds[kind].size;
    Content c;
    c.items.assign(count, Item{inside.w, inside.h});
    Link(
        begin, begin + count * size, [&](uint32_t pos) { return (pos - begin) / size; }, &c);
    Arrange(c, o_);
    SeriesLayout out;
    out.kind = kind;
    out.w = c.w + 2 * o_.margin;
    out.h = c.h + o_.header + o_.margin;
    out.ix.resize(count);
    out.iy.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
      out.ix[i] = o_.margin + c.items[i].x;
      out.iy[i] = o_.header + c.items[i].y;
    }
    return out;
  }

  /// The inside of `kind`, laid out once from its instance starting at position `start`.
  const KindLayout& LayoutKind(uint32_t kind, uint32_t start) {
    if (kinds_[kind].done) return kinds_[kind];
    const GroupKind& gk = grouping_.kinds[kind];
    KindLayout k;
    k.inside = LayoutLevel(gk.children, start, gk.size);
    k.w = k.inside.content.w + 2 * o_.margin;
    k.h = k.inside.content.h + o_.header + o_.margin;
    k.done = true;
    kinds_[kind] = std::move(k);
    return kinds_[kind];
  }

  void Box(float x0, float y0, float w, float h, GroupedLayout* out) {
    out->boxes.insert(out->boxes.end(), {x0, y0, x0 + w, y0 + h});
  }

  /// Writes the boxes and node centres of a level whose content starts at (x, y).
  void PlaceLevel(const LevelLayout& level, const std::vector<GroupSeries>& list, uint32_t base,
                  uint32_t size, float x, float y, GroupedLayout* out) {
    for (uint32_t r = 0, item = 0; r < size; ++item) {
      const Item& it = level.content.items[item];
      if (level.item_series[item] >= 0) {
        const size_t s = static_cast<size_t>(level.item_series[item]);
        PlaceSeries(level.series[s], base + r, x + it.x, y + it.y, out);
        r += list[s].count * grouping_.kinds[list[s].kind].size;
      } else {
        const uint32_t node = grouping_.order[base + r++];
        out->x[node] = x + it.x + o_.node_width / 2;
        out->y[node] = y + it.y + o_.node_height / 2;
      }
    }
  }

  /// Writes the boxes and node centres of a series placed with its top-left at (x, y).
  void PlaceSeries(const SeriesLayout& sl, uint32_t begin, float x, float y, GroupedLayout* out) {
    Box(x, y, sl.w, sl.h, out);
    const GroupKind& gk = grouping_.kinds[sl.kind];
    const KindLayout& k = kinds_[sl.kind];
    for (size_t i = 0; i < sl.ix.size(); ++i) {
      const float ix = x + sl.ix[i], iy = y + sl.iy[i];
      Box(ix, iy, k.w, k.h, out);
      PlaceLevel(k.inside, gk.children, begin + static_cast<uint32_t>(i) * gk.size, gk.size,
                 ix + o_.margin, iy + o_.header, out);
    }
  }

  const DepGraph& graph_;
  const TaskGrouping& grouping_;
  const GroupedLayoutOptions& o_;
  std::vector<KindLayout> kinds_;
  std::vector<uint32_t> succ_off_, succ_;
};

}  // namespace

GroupedLayout ComputeGroupedLayout(const DepGraph& graph, const TaskGrouping& grouping,
                                   const GroupedLayoutOptions& options) {
  if (graph.nodes.empty()) return {};
  return Builder(graph, grouping, options).Run();
}

uint64_t GroupBoxCount(const TaskGrouping& grouping) {
  // Boxes of one instance of each kind (itself and what is nested in it), memoised.
  std::vector<uint64_t> per_instance(grouping.kinds.size(), 0);
  std::vector<uint8_t> known(grouping.kinds.size(), 0);
  auto instance_boxes = [&](auto&& self, uint32_t kind) -> uint64_t {
    if (known[kind]) return per_instance[kind];
    uint64_t boxes = 1;
    for (const GroupSeries& c : grouping.kinds[kind].children)
      boxes += 1 + c.count * self(self, c.kind);
    known[kind] = 1;
    return per_instance[kind] = boxes;
  };
  uint64_t total = 0;
  for (const GroupSeries& s : grouping.series)
    total += 1 + s.count * instance_boxes(instance_boxes, s.kind);
  return total;
}

}  // namespace depgraph
