#include "depgraph/timing/clock_alignment.h"

#include <utility>
#include <vector>

#include "raw_records.h"

namespace depgraph {

namespace {

constexpr const char* kBefore = "pre_host_orchestration";
constexpr const char* kAfter = "post_device_execution";
constexpr const char* kMethod = "nominal_frequency_offset_interp_v1";

/// value * multiplier / divisor with the quotient rounded toward zero (divisor > 0).
__int128 MulDivTowardZero(__int128 value, __int128 multiplier, __int128 divisor) {
  const __int128 product = value * multiplier;
  return product >= 0 ? product / divisor : -((-product) / divisor);
}

/// Floor division by a positive divisor, as Python's // does.
__int128 FloorDiv(__int128 value, __int128 divisor) {
  __int128 q = value / divisor;
  if ((value % divisor != 0) && (value < 0)) --q;
  return q;
}

ClockAlignment Unaligned(int64_t frequency_hz, const char* reason, __int128 quantization_ns) {
  ClockAlignment out;
  out.frequency_hz = frequency_hz;
  out.reason = reason;
  out.host_quantization_ns = quantization_ns;
  return out;
}

/// `error` counts as no error when it is null, 0 (or 0.0, false) or "".
bool NoError(const ordered_json* error) {
  if (error == nullptr || error->is_null()) return true;
  if (error->is_string()) return error->get_ref<const std::string&>().empty();
  if (error->is_boolean()) return !error->get<bool>();
  if (error->is_number()) return error->get<double>() == 0;
  return false;
}

/// One sample as an anchor, or nothing when it is unusable.
std::optional<ClockAnchor> ParseAnchor(const ordered_json& sample, const char* position,
                                       __int128 device_quantization_ns) {
  if (!NoError(Member(sample, "error"))) return std::nullopt;
  __int128 before = 0, ticks = 0, after = 0, index = 0;
  std::string why;
  for (auto [key, value] : {std::pair{"host_before_ns", &before}, std::pair{"device_cycles", &ticks},
                            std::pair{"host_after_ns", &after}, std::pair{"sample_idx", &index}}) {
    const ordered_json* v = Member(sample, key);
    if (v == nullptr || !PyIntOfJson(*v, value, &why)) return std::nullopt;
  }
  if (before <= 0 || ticks <= 0 || after < before || index < 0) return std::nullopt;
  ClockAnchor anchor;
  anchor.position = position;
  anchor.sample_idx = static_cast<int64_t>(index);
  anchor.rtt_ns = after - before;
  anchor.host_mid_ns = before + FloorDiv(anchor.rtt_ns, 2);
  anchor.device_ticks = ticks;
  anchor.uncertainty_ns = FloorDiv(anchor.rtt_ns + 1, 2) + device_quantization_ns;
  return anchor;
}

/// The anchor with the shortest round trip, ties to the lower sample index, then the first.
const ClockAnchor& Best(const std::vector<ClockAnchor>& anchors) {
  size_t best = 0;
  for (size_t i = 1; i < anchors.size(); ++i) {
    const ClockAnchor& a = anchors[i];
    const ClockAnchor& b = anchors[best];
    if (a.rtt_ns < b.rtt_ns || (a.rtt_ns == b.rtt_ns && a.sample_idx < b.sample_idx)) best = i;
  }
  return anchors[best];
}

ordered_json Int128Json(__int128 v) {
  if (v >= INT64_MIN && v <= INT64_MAX) return static_cast<int64_t>(v);
  if (v >= 0 && v <= static_cast<__int128>(UINT64_MAX)) return static_cast<uint64_t>(v);
  return static_cast<double>(v);
}

}  // namespace

__int128 ClockAlignment::MapTicksToHostNs(__int128 device_ticks) const {
  const __int128 delta = device_ticks - start->device_ticks;
  const __int128 span = end->device_ticks - start->device_ticks;
  const __int128 nominal_delta = MulDivTowardZero(delta, 1000000000, frequency_hz);
  const __int128 nominal_end = start->host_mid_ns + MulDivTowardZero(span, 1000000000, frequency_hz);
  const __int128 correction = MulDivTowardZero(end->host_mid_ns - nominal_end, delta, span);
  return start->host_mid_ns + nominal_delta + correction;
}

ordered_json ClockAlignment::Metadata() const {
  ordered_json out = ordered_json::object();
  out["status"] = calibrated ? "calibrated" : "unaligned";
  out["method"] = kMethod;
  if (start && end) {
    const __int128 anchor = std::max(start->uncertainty_ns, end->uncertainty_ns);
    out["anchor_uncertainty_ns"] = Int128Json(anchor);
    out["host_timestamp_quantization_ns"] = Int128Json(host_quantization_ns);
    out["max_uncertainty_ns"] = Int128Json(anchor + host_quantization_ns);
  } else {
    out["anchor_uncertainty_ns"] = nullptr;
    out["host_timestamp_quantization_ns"] = Int128Json(host_quantization_ns);
    out["max_uncertainty_ns"] = nullptr;
  }
  if (!calibrated) out["reason"] = reason;
  if (start && end) {
    ordered_json selected = ordered_json::object();
    selected[start->position] = start->sample_idx;
    selected[end->position] = end->sample_idx;
    out["selected_sample_idx"] = std::move(selected);
  }
  return out;
}

ClockAlignment BuildClockAlignment(const ordered_json* anchors, int64_t frequency_hz,
                                   const DeviceTickRange& device_ticks, __int128 quantization_ns,
                                   int64_t* bad_sample) {
  if (quantization_ns < 0) return Unaligned(frequency_hz, "invalid_host_timestamp_quantization", 0);
  if (frequency_hz <= 0) {
    return Unaligned(frequency_hz, "invalid_device_frequency", quantization_ns);
  }
  if (anchors == nullptr || !anchors->is_object()) {
    return Unaligned(frequency_hz, "missing_clock_anchors", quantization_ns);
  }
  const ordered_json* samples = Member(*anchors, "samples");
  if (samples == nullptr || !samples->is_array()) {
    return Unaligned(frequency_hz, "missing_clock_anchor_samples", quantization_ns);
  }
  const ordered_json* unit = Member(*anchors, "device_timestamp_unit");
  if (unit == nullptr || !unit->is_string() || *unit != "syscnt_cycles") {
    return Unaligned(frequency_hz, "unsupported_device_timestamp_unit", quantization_ns);
  }
  const ordered_json* raw_unit = Member(*anchors, "raw_device_timestamp_unit");
  __int128 device_quantization_ns = 0;
  if (raw_unit != nullptr && raw_unit->is_string() && *raw_unit == "device_uptime_us") {
    device_quantization_ns = 1000;  // microsecond readings normalised to ticks
  } else if (raw_unit != nullptr && !(raw_unit->is_string() && *raw_unit == "syscnt_cycles")) {
    return Unaligned(frequency_hz, "unsupported_raw_device_timestamp_unit", quantization_ns);
  }
  std::vector<ClockAnchor> before, after;
  for (size_t i = 0; i < samples->size(); ++i) {
    const ordered_json& sample = (*samples)[i];
    if (!sample.is_object()) continue;
    const ordered_json* position = Member(sample, "position");
    if (position != nullptr && (position->is_array() || position->is_object())) {
      if (bad_sample != nullptr && *bad_sample < 0) *bad_sample = static_cast<int64_t>(i);
      continue;
    }
    if (position == nullptr || !position->is_string()) continue;
    const bool is_before = *position == kBefore;
    if (!is_before && *position != kAfter) continue;
    if (auto anchor = ParseAnchor(sample, is_before ? kBefore : kAfter, device_quantization_ns)) {
      (is_before ? before : after).push_back(std::move(*anchor));
    }
  }
  if (before.empty()) {
    return Unaligned(frequency_hz, "no_valid_pre_host_orchestration_anchor", quantization_ns);
  }
  if (after.empty()) {
    return Unaligned(frequency_hz, "no_valid_post_device_execution_anchor", quantization_ns);
  }
  const ClockAnchor& start = Best(before);
  const ClockAnchor& end = Best(after);
  if (end.host_mid_ns <= start.host_mid_ns) {
    return Unaligned(frequency_hz, "host_anchor_order_invalid", quantization_ns);
  }
  if (end.device_ticks <= start.device_ticks) {
    return Unaligned(frequency_hz, "device_anchor_order_invalid", quantization_ns);
  }
  if (device_ticks.any && (device_ticks.min < start.device_ticks || device_ticks.max > end.device_ticks)) {
    return Unaligned(frequency_hz, "device_timestamps_outside_anchor_coverage", quantization_ns);
  }
  ClockAlignment out;
  out.calibrated = true;
  out.frequency_hz = frequency_hz;
  out.host_quantization_ns = quantization_ns;
  out.start = start;
  out.end = end;
  return out;
}

}  // namespace depgraph
