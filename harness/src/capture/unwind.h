// SPDX-License-Identifier: Apache-2.0
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

#include <bit>
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
  // The caller's rule the first time a stack passed through this frame, tried
  // first every time after: a function is mostly called from the same place,
  // and while the guess is right the next frame's address needs no lookup
  // keyed by this frame's loaded return address, so the loads of a stack
  // overlap instead of each waiting for the one before.
  FrameRule* caller = nullptr;
};

/// The most frames either unwinder returns.
inline constexpr int kMaxUnwindFrames = 64;

/// The outer part of the stack where a capture begins, which every stack
/// captured below that point shares: anchor_stack() walks it once and keeps,
/// at each level, the state its walk was in (the rule, stack and frame
/// pointers) and every stack word it read from there on. unwind_stack() is
/// deterministic in those: a walk that reaches a level in the same state,
/// with the same words still on the stack, would find the same frames, so it
/// copies them instead of walking on. It checks the words each time (loads
/// that do not wait on one another, where a walk's each wait on the last),
/// so an anchor whose frames have returned costs a check, never a frame.
struct StackAnchor {
  struct Level {
    const FrameRule* rule = nullptr;  // null: an uncached rule, not compared
    std::uintptr_t sp = 0;
    std::uintptr_t fp = 0;
    bool uses_fp = false;           // this level's CFA is fp + offset
    bool restores_fp = false;       // this level loads fp from the stack
    bool needs_fp = false;          // the walk from here reads fp before it restores it
    int first_word = 0;             // words[first_word, word_count) were read from here on
    std::uint64_t suffix_hash = 0;  // hash_frames() of frames[this level, depth)
  };
  struct Word {
    std::uintptr_t address = 0;
    std::uintptr_t value = 0;
  };
  int depth = 0;  // the frames it found; 0: nothing to join
  int word_count = 0;
  Level levels[kMaxUnwindFrames + 1];  // and the state that ended the walk
  void* frames[kMaxUnwindFrames];
  Word words[2 * kMaxUnwindFrames + 2];  // each level's return address and frame pointer
};

/// Rules by return address, open addressing, reserved by whoever owns the
/// capture so that the hook never allocates. When it is full, rules are still
/// worked out, just not kept.
struct FrameRuleCache {
  FrameRule* slots = nullptr;
  std::size_t capacity = 0;             // a power of two, or 0 for no cache
  std::uint64_t fallbacks = 0;          // stacks handed to backtrace()
  FrameRule* own = nullptr;             // unwind_stack's own frame's rule, once cached
  const StackAnchor* anchor = nullptr;  // set by anchor_stack()
  std::uint64_t joins = 0;              // stacks that took the anchor's frames
  std::uint64_t stale_levels = 0;       // levels met in their state, words changed
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
/// hash_frames() of a stack from the hash of its first frames and that of the
/// `outer` frames after them: each step rotates what came before by 7 bits
/// and xors the new frame in, so the first frames' hash ends up rotated by
/// 7 bits per outer frame.
inline std::uint64_t hash_joined(std::uint64_t inner, std::uint64_t outer_hash, int outer) noexcept {
  return std::rotl(inner, 7 * outer % 64) ^ outer_hash;
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

/// Walks the calling stack once and keeps it in `anchor` for unwind_stack()
/// to join (cache.anchor), if the walk reached the stack's end without a
/// fallback; otherwise leaves cache.anchor null. `anchor` must outlive its
/// use by the cache, and belongs to the calling thread's stack.
void anchor_stack(FrameRuleCache& cache, StackAnchor& anchor) noexcept;

/// The plain twin: glibc's backtrace() without its own frame.
int backtrace_stack(void** frames, int max_frames) noexcept;

}  // namespace allocgate::detail
