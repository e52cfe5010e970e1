#include "gen_records.h"

namespace gen_graph {

GenView GenView::Matrix(DType dtype, int64_t rows, int64_t cols, int64_t row_len,
                        int64_t row_offset, int64_t col) {
  GenView view;
  view.dtype = dtype;
  view.start = row_offset * row_len + col;
  view.ndim = 2;
  view.shape[0] = rows;
  view.shape[1] = cols;
  view.strides[0] = row_len;
  view.strides[1] = 1;
  return view;
}

GenView GenView::Run(DType dtype, int64_t count, int64_t start) {
  GenView view;
  view.dtype = dtype;
  view.start = start;
  view.ndim = 1;
  view.shape[0] = count;
  view.strides[0] = 1;
  return view;
}

int64_t GenView::End() const {
  int64_t last = start;
  for (int d = 0; d < ndim; ++d) last += (shape[d] - 1) * strides[d];
  return last + 1;
}

bool ViewWithin(const GenView& inner, const GenView& outer) {
  return inner.Begin() >= outer.Begin() && inner.End() <= outer.End();
}

bool ViewsOverlap(const GenView& a, const GenView& b) {
  return a.Begin() < b.End() && b.Begin() < a.End();
}

const char* OverlapName(Overlap overlap) {
  switch (overlap) {
    case Overlap::kCovered: return "covered";
    case Overlap::kOther: return "other";
    case Overlap::kNone: break;
  }
  return "";
}

}  // namespace gen_graph
