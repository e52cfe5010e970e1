// Host/device clock alignment of a host-orchestrated capture (the reference's
// clock_correlation.py): two anchor samples, taken before host orchestration and after device
// execution, pair a host monotonic time with a device tick; between them device ticks map to
// host nanoseconds by the nominal frequency plus a linear correction (docs/swimlane.md).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace depgraph {

/// One usable anchor sample.
struct ClockAnchor {
  std::string position;   ///< "pre_host_orchestration" or "post_device_execution"
  int64_t sample_idx = 0;
  __int128 host_mid_ns = 0;    ///< host_before + (host_after - host_before) / 2 (floored)
  __int128 device_ticks = 0;
  __int128 rtt_ns = 0;         ///< host_after - host_before
  __int128 uncertainty_ns = 0; ///< ceil(rtt / 2) + the raw unit's quantisation
};

/// The outcome: calibrated (both anchors, in order, covering every device timestamp) or
/// unaligned with a reason.
struct ClockAlignment {
  bool calibrated = false;
  std::string reason;  ///< why not calibrated ("missing_clock_anchors", ...); "" if calibrated
  int64_t frequency_hz = 0;
  __int128 host_quantization_ns = 0;  ///< host_timestamp_quantization_ns (0 when invalid)
  std::optional<ClockAnchor> start, end;  ///< set only when calibrated

  /// Host nanoseconds of a device tick within [start, end] (the caller has checked coverage:
  /// every positive timestamp of the run is). Quotients round toward zero, as the reference's
  /// integer arithmetic does. O(1).
  __int128 MapTicksToHostNs(__int128 device_ticks) const;
  /// The alignment as the trace's `metadata.clock_alignment` object: status, method,
  /// anchor_uncertainty_ns, host_timestamp_quantization_ns, max_uncertainty_ns, then reason
  /// (unaligned) or selected_sample_idx (calibrated). O(1).
  nlohmann::ordered_json Metadata() const;
};

/// The positive device timestamps of a run, as far as coverage is concerned: their range.
struct DeviceTickRange {
  bool any = false;   ///< some device timestamp is > 0
  __int128 min = 0;   ///< smallest positive device timestamp
  __int128 max = 0;   ///< largest device timestamp
  /// Counts `ticks` in (those <= 0 are ignored, as the reference ignores them). O(1).
  void Add(__int128 ticks) {
    if (ticks <= 0) return;
    if (!any || ticks < min) min = ticks;
    if (!any || ticks > max) max = ticks;
    any = true;
  }
};

/// Builds the alignment from `metadata.clock_anchors` (nullptr when absent), the device clock
/// and the range of the run's device timestamps. `quantization_ns` is int() of
/// `metadata.host_timestamp_quantization_ns` (default 0); a negative one makes the alignment
/// unaligned. Never fails: an unusable anchor set is a reason, not an error. A sample whose
/// `position` is an array or an object (unhashable: the reference crashes) sets *bad_sample
/// to its index when non-null; the sample is then ignored. Cost: O(samples).
ClockAlignment BuildClockAlignment(const nlohmann::ordered_json* anchors, int64_t frequency_hz,
                                   const DeviceTickRange& device_ticks, __int128 quantization_ns,
                                   int64_t* bad_sample = nullptr);

}  // namespace depgraph
