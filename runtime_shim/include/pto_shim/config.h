// Flavour selection, limits and error codes of the orchestration API (orchestration_api.md
// §2.4, §2.8, §3).
//
// Flavours are chosen by compile definitions of the orchestration build:
//   (none)          a2a3 tensormap_and_ringbuffer (TMRB)
//   PTO_SHIM_A5     a5 spelling: TMRB launch spec uses set_core_num / core_num
//   PTO_SHIM_HBG    host_build_graph: Graph Execution API, no TMRB-only members
// PTO_SHIM_A5 and PTO_SHIM_HBG may be combined (a5 host_build_graph spells set_block_num).
// Every type has the same layout in every flavour, so one libpto_shim serves them all; the
// run-time behaviour (rings, flags) comes from the runner's ShimConfig.
#pragma once

#include <cstdint>

#if defined(PTO_SHIM_HBG)
#define PTO_SHIM_IS_HBG 1
#else
#define PTO_SHIM_IS_HBG 0
#endif

/// 1 when the launch spec spells the SPMD count set_core_num (a5 tensormap_and_ringbuffer).
#if defined(PTO_SHIM_A5) && !PTO_SHIM_IS_HBG
#define PTO_SHIM_CORE_NUM_SPELLING 1
/// The a5-TMRB types header guard, which sources probe to pick set_core_num (§2.4).
#define SRC_A5_RUNTIME_TENSORMAP_AND_RINGBUFFER_RUNTIME_PTO_TYPES_H_
#else
#define PTO_SHIM_CORE_NUM_SPELLING 0
#endif

// Feature switches of the real build (profiling_config.h defaults). SIMPLER_ORCH_PROFILING
// must stay 0: the profiling hooks pypto emits under it do not exist.
#ifndef SIMPLER_DFX
#define SIMPLER_DFX 1
#endif
#ifndef SIMPLER_ORCH_PROFILING
#define SIMPLER_ORCH_PROFILING 0
#endif

// Fatal error codes (rt_report_fatal, and the ones the shim raises itself).
#define PTO2_ERROR_NONE 0
#define PTO2_ERROR_SCOPE_DEADLOCK 1
#define PTO2_ERROR_HEAP_RING_DEADLOCK 2
#define PTO2_ERROR_FLOW_CONTROL_DEADLOCK 3
#define PTO2_ERROR_DEP_POOL_OVERFLOW 4
#define PTO2_ERROR_INVALID_ARGS 5
#if PTO_SHIM_IS_HBG
#define PTO2_ERROR_DEPENDENCY_OVERFLOW 6
#endif
#define PTO2_ERROR_REQUIRE_SYNC_START_INVALID 7
#define PTO2_ERROR_TENSOR_WAIT_TIMEOUT 8
#define PTO2_ERROR_EXPLICIT_ORCH_FATAL 9
#define PTO2_ERROR_SCOPE_TASKS_OVERFLOW 10
#define PTO2_ERROR_TENSORMAP_OVERFLOW 11
#define PTO2_ERROR_SCHEDULER_TIMEOUT 100
#define PTO2_ERROR_ASYNC_COMPLETION_INVALID 101
#define PTO2_ERROR_ASYNC_WAIT_OVERFLOW 102
#define PTO2_ERROR_ASYNC_REGISTRATION_FAILED 103

/// Per-task argument limits (macro spelling).
#define MAX_TENSOR_ARGS 32
#define MAX_SCALAR_ARGS 16

/// Most dimensions of a tensor view.
inline constexpr uint32_t MAX_TENSOR_DIMS = 5;
/// Kernel id of an inactive core slot.
inline constexpr int32_t INVALID_KERNEL_ID = -1;
/// Tensor / scalar capacity of CoreTaskArgs.
inline constexpr int32_t CORE_MAX_TENSOR_ARGS = 32;
inline constexpr int32_t CORE_MAX_SCALAR_ARGS = 16;
/// Tensor / scalar capacity of ChipTaskArgs (the entry arguments).
inline constexpr int32_t CHIP_MAX_TENSOR_ARGS = 256;
inline constexpr int32_t CHIP_MAX_SCALAR_ARGS = 128;
#if PTO_SHIM_IS_HBG
/// Tensor / scalar capacity of GraphTaskArgs (Graph Execution boundary).
inline constexpr int32_t GRAPH_MAX_TENSOR_ARGS = 128;
inline constexpr int32_t GRAPH_MAX_SCALAR_ARGS = 64;
#endif
/// Task timing slots (set_task_timing_slot) and the "no slot" value.
inline constexpr int32_t NUM_TASK_TIMING_SLOTS = 16;
inline constexpr int32_t TASK_TIMING_SLOT_NONE = -1;
/// Number of task rings; scopes nested deeper than this share the last ring.
inline constexpr int32_t PTO2_MAX_RING_DEPTH = 4;
