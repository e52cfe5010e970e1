// Arg, the per-task argument builder, and its companions: TensorRef, PTO2LaunchSpec,
// CoreTaskPredicate (orchestration_api.md §2.2, §2.5).
#pragma once

#include <cstdint>
#include <type_traits>

#include "pto_shim/abi.h"
#include "pto_shim/chip_tensor.h"
#include "pto_shim/create_info.h"
#include "pto_shim/types.h"

namespace pto_shim::detail {
struct ArgAccess;
}  // namespace pto_shim::detail

/// One argument slot of an Arg: the address of the caller's ChipTensor or, for an OUTPUT
/// slot, of its TensorCreateInfo (what tensor(i) returns).
class TensorRef {
 public:
  /// The tensor view (any non-OUTPUT slot; every entry argument).
  const ChipTensor& ref() const { return *static_cast<const ChipTensor*>(pointer_); }
  /// The create-info (OUTPUT slots).
  const TensorCreateInfo& create_info() const {
    return *static_cast<const TensorCreateInfo*>(pointer_);
  }

 private:
  template <int32_t, int32_t>
  friend class Arg;
  friend struct pto_shim::detail::ArgAccess;
  const void* pointer_ = nullptr;
};

/// SPMD launch settings of a task: block count (default 1; recorded as block_num) and the
/// sync-start flag. a5 tensormap_and_ringbuffer spells the count set_core_num / core_num.
class PTO2LaunchSpec {
 public:
#if PTO_SHIM_CORE_NUM_SPELLING
  /// Number of cores (blocks) the task runs on (>= 1).
  void set_core_num(int16_t n) { block_num_ = n; }
  /// The core count.
  int16_t core_num() const { return block_num_; }
#else
  /// Number of blocks the task runs on (>= 1).
  void set_block_num(int16_t n) { block_num_ = n; }
  /// The block count.
  int16_t block_num() const { return block_num_; }
#endif
  /// All blocks must start together (checked against the available cores).
  void set_require_sync_start(bool v) { require_sync_start_ = v; }
  /// The sync-start flag.
  bool require_sync_start() const { return require_sync_start_; }

 private:
  friend struct pto_shim::detail::ArgAccess;
  int16_t block_num_ = 1;
  bool require_sync_start_ = false;
};

/// The tensor element a dispatch predicate reads.
struct CorePredicateOperand {
  const ChipTensor* tensor = nullptr;
  uint32_t ndims = 0;
  uint32_t indices[MAX_TENSOR_DIMS] = {};
};

/// A dispatch predicate (`operand op target`). No dependency effect; not recorded.
struct CoreTaskPredicate {
  CorePredicateOperand operand;
  PredicateOp op = PredicateOp::NONE;
  int64_t target = 0;
};

/// The argument list of one task (or of the entry, or of a graph boundary): up to MaxT tensor
/// arguments, then up to MaxS u64 scalars, explicit dependencies and launch settings.
/// Tensors are stored by address (the caller keeps them alive through the submit); the order
/// of the add_* calls is the argument index. Misuse (a tensor after a scalar, too many
/// arguments, a second non-empty set_dependencies) records an error that turns the submit
/// into a fatal INVALID_ARGS. Non-copyable, non-movable; reusable through reset().
template <int32_t MaxT, int32_t MaxS>
class Arg {
 public:
  Arg() = default;
  Arg(const Arg&) = delete;
  Arg& operator=(const Arg&) = delete;

  /// INPUT arguments (lvalue ChipTensors): creator edge + TensorMap lookup.
  template <typename... Ts>
  void add_input(Ts&... tensors) {
    static_assert(sizeof...(Ts) >= 1 && (std::is_same_v<std::remove_cv_t<Ts>, ChipTensor> && ...),
                  "add_input takes lvalue ChipTensors");
    (add_tensor(&tensors, TensorArgType::INPUT), ...);
  }
  /// INOUT arguments: creator + lookup (COVERED entries removed) + publish.
  template <typename... Ts>
  void add_inout(Ts&... tensors) {
    static_assert(sizeof...(Ts) >= 1 && (std::is_same_v<std::remove_cv_t<Ts>, ChipTensor> && ...),
                  "add_inout takes lvalue ChipTensors");
    (add_tensor(&tensors, TensorArgType::INOUT), ...);
  }
  /// NO_DEP arguments: creator edge only.
  template <typename... Ts>
  void add_no_dep(Ts&... tensors) {
    static_assert(sizeof...(Ts) >= 1 && (std::is_same_v<std::remove_cv_t<Ts>, ChipTensor> && ...),
                  "add_no_dep takes lvalue ChipTensors");
    (add_tensor(&tensors, TensorArgType::NO_DEP), ...);
  }
  /// All TensorCreateInfos: OUTPUT (runtime allocates; returned by get_ref in order).
  /// All ChipTensors: OUTPUT_EXISTING (creator edge + publish, no lookup).
  template <typename... Ts>
  void add_output(Ts&... items) {
    constexpr bool kCreateInfos =
        (std::is_same_v<std::remove_cv_t<Ts>, TensorCreateInfo> && ...);
    constexpr bool kTensors = (std::is_same_v<std::remove_cv_t<Ts>, ChipTensor> && ...);
    static_assert(sizeof...(Ts) >= 1 && (kCreateInfos || kTensors),
                  "add_output takes either only TensorCreateInfos or only ChipTensors (lvalues)");
    (add_tensor(&items,
                kCreateInfos ? TensorArgType::OUTPUT : TensorArgType::OUTPUT_EXISTING),
     ...);
  }

  /// Scalars of any arithmetic, enum or pointer type, bit-cast with to_u64.
  template <typename... Ts>
  void add_scalar(Ts... values) {
    (push_scalar(to_u64(values)), ...);
  }
  /// `count` u64 scalars.
  void add_scalars(const uint64_t* values, int count) {
    for (int i = 0; i < count; ++i) push_scalar(values[i]);
  }
  /// `count` int32 scalars, zero-extended.
  void add_scalars_i32(const int32_t* values, int count) {
    for (int i = 0; i < count; ++i) push_scalar(static_cast<uint32_t>(values[i]));
  }
  /// Scalars [offset, offset + count) of `other`.
  template <int32_t T2, int32_t S2>
  void copy_scalars_from(const Arg<T2, S2>& other, int offset, int count) {
    for (int i = 0; i < count; ++i) {
      if (offset + i < 0 || offset + i >= other.scalar_count()) {
        set_error("copy_scalars_from: source scalar index out of range");
        return;
      }
      push_scalar(other.scalar(offset + i));
    }
  }

  /// Explicit predecessors (`ids` must stay alive through the submit). n == 0 clears; a
  /// second non-empty call is an error.
  void set_dependencies(const PTO2TaskId* ids, uint32_t n) {
    if (n == 0) {
      deps_ = nullptr;
      dep_kinds_ = nullptr;
      dep_count_ = 0;
      return;
    }
    if (dep_count_ != 0) {
      set_error("set_dependencies called twice");
      return;
    }
    deps_ = ids;
    dep_kinds_ = nullptr;
    dep_count_ = n;
  }
#if !PTO_SHIM_IS_HBG
  /// Explicit predecessors with per-dependency kinds (deps.json prints all as wait+retain).
  void set_dependencies_with_kinds(const PTO2TaskId* ids, const DepFlags* kinds, uint32_t n) {
    set_dependencies(ids, n);
    if (n != 0 && deps_ == ids) dep_kinds_ = reinterpret_cast<const uint8_t*>(kinds);
  }
  /// Kind of explicit dependency i (WAIT|RETAIN unless given).
  DepFlags explicit_dep_kind(uint32_t i) const {
    return dep_kinds_ != nullptr && i < dep_count_ ? static_cast<DepFlags>(dep_kinds_[i])
                                                   : (DEP_WAIT | DEP_RETAIN);
  }
#endif
  /// Number of explicit dependencies.
  uint32_t explicit_dep_count() const { return dep_count_; }
  /// Explicit dependency i.
  PTO2TaskId explicit_dep(uint32_t i) const {
    return i < dep_count_ ? deps_[i] : PTO2TaskId::invalid();
  }
  /// The explicit dependency array (may be null).
  const PTO2TaskId* explicit_deps_data() const { return deps_; }

  /// Lets the task resolve early (recorded as early_dispatch).
  void set_allow_early_resolve(bool v = true) { allow_early_resolve_ = v; }
  /// The early-resolve flag.
  bool allow_early_resolve() const { return allow_early_resolve_; }
  /// Dispatch predicate (no dependency effect).
  void set_predicate(const CoreTaskPredicate& p) {
    predicate_ = p;
    has_predicate_ = true;
  }
  /// The dispatch predicate.
  const CoreTaskPredicate& predicate() const { return predicate_; }
  /// Task timing slot 0..15 (or TASK_TIMING_SLOT_NONE); out of range is an error.
  void set_task_timing_slot(int32_t slot) {
    if (slot < TASK_TIMING_SLOT_NONE || slot >= NUM_TASK_TIMING_SLOTS) {
      set_error("set_task_timing_slot: slot out of range");
      return;
    }
    task_timing_slot_ = slot;
  }
  /// The task timing slot.
  int32_t task_timing_slot() const { return task_timing_slot_; }
  /// DFX dump marker; no effect in the shim.
  template <typename... Ts>
  void dump(const Ts&...) const {}

  /// Clears arguments, dependencies, flags, predicate, timing slot and the error.
  void reset() {
    tensor_count_ = 0;
    scalar_count_ = 0;
    deps_ = nullptr;
    dep_kinds_ = nullptr;
    dep_count_ = 0;
    allow_early_resolve_ = false;
    has_predicate_ = false;
    predicate_ = CoreTaskPredicate{};
    task_timing_slot_ = TASK_TIMING_SLOT_NONE;
    launch_spec = PTO2LaunchSpec{};
    has_error = false;
    error_msg = nullptr;
  }
  /// Same as reset().
  void clear() { reset(); }
  /// Records an error (the first message wins).
  void set_error(const char* message) {
    if (!has_error) error_msg = message;
    has_error = true;
  }

  /// Argument i (entry tensors: `.ref()`).
  const TensorRef& tensor(int32_t i) const { return refs_[i]; }
  /// Direction of argument i.
  TensorArgType tag(int32_t i) const { return tags_[i]; }
#if PTO_SHIM_IS_HBG
  /// Scalar i.
  const uint64_t& scalar(int32_t i) const { return scalars_[i]; }
  /// Scalar i, writable.
  uint64_t& scalar(int32_t i) { return scalars_[i]; }
#else
  /// Scalar i.
  uint64_t scalar(int32_t i) const { return scalars_[i]; }
#endif
  /// Number of tensor arguments.
  int32_t tensor_count() const { return tensor_count_; }
  /// Number of scalars.
  int32_t scalar_count() const { return scalar_count_; }

  PTO2LaunchSpec launch_spec;     ///< SPMD block count and sync-start flag
  bool has_error = false;         ///< an add_* or setter was misused
  const char* error_msg = nullptr;  ///< the first error message

 protected:
  /// Appends one tensor slot (error when full or after a scalar).
  void add_tensor(const void* pointer, TensorArgType type) {
    if (scalar_count_ > 0) {
      set_error("tensor argument added after a scalar");
      return;
    }
    if (tensor_count_ >= MaxT) {
      set_error("too many tensor arguments");
      return;
    }
    refs_[tensor_count_].pointer_ = pointer;
    tags_[tensor_count_] = type;
    ++tensor_count_;
  }
  /// Appends one scalar (error when full).
  void push_scalar(uint64_t value) {
    if (scalar_count_ >= MaxS) {
      set_error("too many scalar arguments");
      return;
    }
    scalars_[scalar_count_++] = value;
  }

  friend struct pto_shim::detail::ArgAccess;
  TensorRef refs_[MaxT];
  TensorArgType tags_[MaxT];
  uint64_t scalars_[MaxS];
  int32_t tensor_count_ = 0;
  int32_t scalar_count_ = 0;
  const PTO2TaskId* deps_ = nullptr;
  const uint8_t* dep_kinds_ = nullptr;
  uint32_t dep_count_ = 0;
  bool allow_early_resolve_ = false;
  bool has_predicate_ = false;
  int32_t task_timing_slot_ = TASK_TIMING_SLOT_NONE;
  CoreTaskPredicate predicate_{};
};

/// Arguments of one task: 32 tensors, 16 scalars.
using CoreTaskArgs = Arg<CORE_MAX_TENSOR_ARGS, CORE_MAX_SCALAR_ARGS>;

/// The entry argument: the runner's tensors (INPUT-tagged, in order) then its u64 scalars.
struct ChipTaskArgs : Arg<CHIP_MAX_TENSOR_ARGS, CHIP_MAX_SCALAR_ARGS> {};

#if PTO_SHIM_IS_HBG
/// Boundary arguments of a Graph Execution call.
using GraphTaskArgs = Arg<128, 64>;
#endif

namespace pto_shim::detail {

/// Flattens an Arg into the C descriptor of one submit (pointers into the Arg).
struct ArgAccess {
  template <int32_t MaxT, int32_t MaxS>
  static void Describe(const Arg<MaxT, MaxS>& args, PtoShimTaskDesc* desc) {
    desc->tensors = args.refs_;
    desc->tags = args.tags_;
    desc->tensor_count = args.tensor_count_;
    desc->scalar_count = args.scalar_count_;
    desc->deps = args.deps_;
    desc->dep_kinds = args.dep_kinds_;
    desc->dep_count = args.dep_count_;
    desc->block_num = args.launch_spec.block_num_;
    desc->require_sync_start = args.launch_spec.require_sync_start_;
    desc->allow_early_resolve = args.allow_early_resolve_;
    desc->has_error = args.has_error;
    desc->error_msg = args.error_msg;
  }
  /// A slot naming `pointer` (a ChipTensor or TensorCreateInfo).
  static TensorRef MakeRef(const void* pointer) {
    TensorRef ref;
    ref.pointer_ = pointer;
    return ref;
  }
  /// Binds `ids` / `kinds` as the explicit dependencies of `args` (CoreTaskArgsWithDeps).
  template <int32_t MaxT, int32_t MaxS>
  static void BindDeps(Arg<MaxT, MaxS>& args, const PTO2TaskId* ids, const uint8_t* kinds,
                       uint32_t n) {
    args.deps_ = n ? ids : nullptr;
    args.dep_kinds_ = n ? kinds : nullptr;
    args.dep_count_ = n;
  }
};

}  // namespace pto_shim::detail
