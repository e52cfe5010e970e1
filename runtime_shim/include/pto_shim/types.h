// Small value types of the orchestration API (orchestration_api.md §2.2, §2.3): dtypes, task
// ids, enums, kernel ids, scalar bit-casts.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "pto_shim/config.h"

/// Element type of a tensor; values 0..14 are the runtime's (runtime.md §0).
enum class DataType : uint8_t {
  FLOAT32,
  FLOAT16,
  INT32,
  INT16,
  INT8,
  UINT8,
  BFLOAT16,
  INT64,
  UINT64,
  UINT16,
  UINT32,
  BOOL,
  FP8E4M3FN,
  FP8E8M0,
  FP4E2M1,
  DATA_TYPE_NUM,
};

/// Bytes per element of `dtype`; 0 for values outside the enum. O(1).
inline constexpr uint64_t get_element_size(DataType dtype) {
  switch (dtype) {
    case DataType::FLOAT32: return 4;
    case DataType::FLOAT16: return 2;
    case DataType::INT32: return 4;
    case DataType::INT16: return 2;
    case DataType::INT8: return 1;
    case DataType::UINT8: return 1;
    case DataType::BFLOAT16: return 2;
    case DataType::INT64: return 8;
    case DataType::UINT64: return 8;
    case DataType::UINT16: return 2;
    case DataType::UINT32: return 4;
    case DataType::BOOL: return 1;
    case DataType::FP8E4M3FN: return 1;
    case DataType::FP8E8M0: return 1;
    case DataType::FP4E2M1: return 1;
    default: return 0;
  }
}

/// Upper-case name of `dtype` ("FLOAT32", ...); "UNKNOWN" outside the enum.
inline const char* get_dtype_name(DataType dtype) {
  switch (dtype) {
    case DataType::FLOAT32: return "FLOAT32";
    case DataType::FLOAT16: return "FLOAT16";
    case DataType::INT32: return "INT32";
    case DataType::INT16: return "INT16";
    case DataType::INT8: return "INT8";
    case DataType::UINT8: return "UINT8";
    case DataType::BFLOAT16: return "BFLOAT16";
    case DataType::INT64: return "INT64";
    case DataType::UINT64: return "UINT64";
    case DataType::UINT16: return "UINT16";
    case DataType::UINT32: return "UINT32";
    case DataType::BOOL: return "BOOL";
    case DataType::FP8E4M3FN: return "FP8E4M3FN";
    case DataType::FP8E8M0: return "FP8E8M0";
    case DataType::FP4E2M1: return "FP4E2M1";
    default: return "UNKNOWN";
  }
}

/// Direction of a task argument (runtime.md §0); set implicitly by the Arg adders.
enum class TensorArgType : int32_t { INPUT, OUTPUT, INOUT, OUTPUT_EXISTING, NO_DEP };

/// Where a tensor's memory lives (only a defaulted factory parameter).
enum class AddressSpace : uint8_t { HOST, DEVICE };

/// Scope mode: AUTO (dependency inference on) or MANUAL (explicit deps only).
enum class PTO2ScopeMode : uint8_t { AUTO = 0, MANUAL = 1 };

/// Comparison of a dispatch predicate (no dependency effect).
enum class PredicateOp : uint8_t { NONE, EQ, NE, GT, LT, GE, LE };

#if !PTO_SHIM_IS_HBG
/// Kinds of an explicit dependency: WAIT (ordering) and RETAIN (lifetime).
enum DepFlags : uint8_t { DEP_NONE = 0, DEP_WAIT = 1, DEP_RETAIN = 2 };
/// Union of dependency kinds.
inline constexpr DepFlags operator|(DepFlags a, DepFlags b) {
  return static_cast<DepFlags>(static_cast<uint8_t>(a) | static_cast<uint8_t>(b));
}
/// Intersection of dependency kinds.
inline constexpr DepFlags operator&(DepFlags a, DepFlags b) {
  return static_cast<DepFlags>(static_cast<uint8_t>(a) & static_cast<uint8_t>(b));
}
/// Adds kinds to `a`.
inline DepFlags& operator|=(DepFlags& a, DepFlags b) { return a = a | b; }
#endif

/// A task id: (ring << 32) | local; all ones = invalid. Trivial, so arrays of ids can be
/// declared uninitialised and filled later.
struct PTO2TaskId {
  uint64_t raw;

  /// The id of local index `local` on ring `ring`.
  static constexpr PTO2TaskId make(uint8_t ring, uint32_t local) {
    return PTO2TaskId{(static_cast<uint64_t>(ring) << 32) | local};
  }
  /// The invalid id (all ones).
  static constexpr PTO2TaskId invalid() { return PTO2TaskId{~uint64_t{0}}; }
  /// Ring of the id (bits 32..39).
  constexpr uint8_t ring() const { return static_cast<uint8_t>(raw >> 32); }
  /// Ring-local index (low 32 bits).
  constexpr uint32_t local() const { return static_cast<uint32_t>(raw); }
  /// Whether the id names a task.
  constexpr bool is_valid() const { return raw != ~uint64_t{0}; }
  /// Whether the id is the invalid id.
  constexpr bool is_invalid() const { return raw == ~uint64_t{0}; }
  /// Ids compare by value.
  constexpr bool operator==(const PTO2TaskId& other) const { return raw == other.raw; }
  /// Ids compare by value.
  constexpr bool operator!=(const PTO2TaskId& other) const { return raw != other.raw; }
};

/// Kernel ids per core slot; -1 (INVALID_KERNEL_ID) = slot inactive.
struct MixedKernels {
  int32_t aic_kernel_id = INVALID_KERNEL_ID;
  int32_t aiv0_kernel_id = INVALID_KERNEL_ID;
  int32_t aiv1_kernel_id = INVALID_KERNEL_ID;
};

/// The allocation behind a tensor view: device address and size in bytes.
struct PTOBufferHandle {
  uint64_t addr;
  uint64_t size;
};

/// What an orchestration's config function returns; only expected_arg_count is read.
struct PTO2OrchestrationConfig {
  int expected_arg_count;
};

/// The bits of `value` zero-extended to 64 bits (float -> f32 bits, int32 -1 -> 0xFFFFFFFF,
/// pointers -> address). Any trivially copyable type of at most 8 bytes.
template <typename T>
inline uint64_t to_u64(T value) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(uint64_t),
                "to_u64 needs a trivially copyable type of at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

/// The low sizeof(T) bytes of `bits` reinterpreted as T (inverse of to_u64).
template <typename T>
inline T from_u64(uint64_t bits) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(uint64_t),
                "from_u64 needs a trivially copyable type of at most 8 bytes");
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}
