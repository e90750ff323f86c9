// Internal: the stack unwinders behind call-site capture.
//
// glibc's backtrace() goes through libgcc's unwinder, which finds each
// frame's unwind table entry and interprets its call-frame instructions anew
// on every call: microseconds per stack. unwind_stack() does that work once
// per return address, keeps the result (where the caller's frame and return
// address are) in a cache, and from then on steps a frame with two loads.
// It reads the same DWARF call-frame information, so frames without a frame
// pointer (libstdc++'s, for one) unwind exactly as they do under backtrace().
#pragma once

#include <cstddef>
#include <cstdint>

namespace allocgate::detail {

/// How to step from a frame to its caller, as the call-frame information
/// describes it at one return address: the caller's stack pointer (the CFA)
/// is a register plus an offset; its return address and frame pointer are
/// saved at offsets from the CFA.
struct FrameRule {
  enum Kind : std::uint8_t {
    kEmpty,      // a free cache slot
    kStep,       // the caller is found as below
    kOutermost,  // the return address is undefined: the stack ends here
    kUnknown,    // a rule this unwinder does not follow: use backtrace()
  };
  std::uintptr_t key = 0;  // the return address (a point just past a call)
  std::int32_t cfa_offset = 0;
  std::int32_t return_address_offset = 0;
  std::int32_t frame_pointer_offset = 0;  // 0: the frame pointer is unchanged
  bool cfa_from_frame_pointer = false;    // CFA = rbp + offset, else rsp + offset
  Kind kind = kEmpty;
  // The caller's rule the last time a stack passed through this frame, tried
  // first the next time: a function is mostly called from the same place,
  // and while the guess is right the next frame's address needs no lookup
  // keyed by this frame's loaded return address, so the loads of a stack
  // overlap instead of each waiting for the one before.
  FrameRule* caller = nullptr;
};

/// The most frames either unwinder returns.
inline constexpr int kMaxUnwindFrames = 64;

/// Rules by return address, open addressing, reserved by whoever owns the
/// capture so that the hook never allocates. When it is full, rules are still
/// worked out, just not kept.
struct FrameRuleCache {
  FrameRule* slots = nullptr;
  std::size_t capacity = 0;  // a power of two, or 0 for no cache
  std::uint64_t fallbacks = 0;  // stacks handed to backtrace()
  FrameRule* own = nullptr;      // unwind_stack's own frame's rule, once cached
};

/// A stack's hash, a frame at a time, for the capture's table: the frames
/// are multiplied independently and only a rotate and an xor chain them, so
/// a deep stack costs a few cycles a frame, not a multiply's latency each.
inline std::uint64_t hash_step(std::uint64_t hash, const void* frame) noexcept {
  return ((hash << 7) | (hash >> 57)) ^ (reinterpret_cast<std::uintptr_t>(frame) * 0x9E3779B97F4A7C15ULL);
}
inline std::uint64_t hash_frames(void* const* frames, int depth) noexcept {
  std::uint64_t hash = 0;
  for (int i = 0; i < depth; ++i) hash = hash_step(hash, frames[i]);
  return hash;
}

/// The return addresses of the calling stack, innermost first, starting with
/// the return address into unwind_stack's caller: the same array that
/// backtrace_stack() gives from the same call site. Falls back to it for a
/// stack with a frame whose rule it does not follow (a signal frame, a
/// DWARF expression, code outside every loaded object's tables, such as
/// code generated at run time) and on other architectures.
/// `hash` is hash_frames() of the result, worked out on the way, where it
/// costs nothing: the CPU has the time while it waits on the stack's loads.
int unwind_stack(void** frames, int max_frames, FrameRuleCache& cache, std::uint64_t& hash) noexcept;

/// The plain twin: glibc's backtrace() without its own frame.
int backtrace_stack(void** frames, int max_frames) noexcept;

}  // namespace allocgate::detail
