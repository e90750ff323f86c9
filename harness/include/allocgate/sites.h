// SPDX-License-Identifier: Apache-2.0
/// @file
/// Where allocations come from: call-site capture, the answer to "which line
/// allocates", like `pprof -sample_index=alloc_objects -top`.
#pragma once

#include "allocgate/standard.h"  // C++17, said in one line

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "allocgate/site_frame.h"

namespace allocgate {

class CaptureSites;
struct SiteProfile;
namespace detail {
struct StackTable;
struct ReservedTable;
/// The stacks of a capture's blocks that a leak check found still live
/// (allocgate::gtest's, per test): count and bytes are those blocks'.
SiteProfile live_profile(const CaptureSites& capture, std::string_view source_root);
}  // namespace detail

/// A site: the innermost frame of an allocation's stack that is the program's
/// own code (not the harness, not a system header), with what it allocated.
struct Site {
  SiteFrame where;
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
  /// Of count, the allocations freed before the thread's next allocation:
  /// throwaways (heaptrack's "temporary allocations").
  std::uint64_t temporary = 0;
  /// The usual fix, when the standard library's frames under the site show a
  /// pattern it has one for ("reserve: ..."); empty otherwise.
  std::string hint;
};

/// A distinct stack, outermost frame first, with what it allocated.
struct StackSample {
  std::vector<SiteFrame> frames;
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
  std::uint64_t temporary = 0;  ///< as Site::temporary
  /// The unwinder's depth limit cut it before it reached the function that
  /// began the capture: its outermost frames are missing.
  bool truncated = false;
};

struct SiteProfile {
  std::uint64_t allocations = 0;  ///< allocations captured
  std::uint64_t bytes = 0;
  std::uint64_t dropped = 0;  ///< allocations whose stack did not fit the table
  std::vector<Site> sites;    ///< most allocations first
  std::vector<StackSample> stacks;

  /// Sites by bytes, most first.
  std::vector<Site> sites_by_bytes() const;
  /// Adds another profile's figures (of the same program): sites by place,
  /// stacks by frames.
  void merge(const SiteProfile& other);
  /// Up to n lines, "  1000 allocs, 32000 B: render (workloads/x.cpp:42)".
  std::string top(std::size_t n, bool by_bytes = false) const;
  /// True when allocations were captured but no site has a line: the code
  /// that allocates was built without line tables (-g), so sites can name
  /// functions only.
  bool lines_missing() const;
};

/// How a capture walks an allocation's stack. Both read the call-frame
/// information every program has for exceptions, so both give the same
/// frames, through code with or without frame pointers.
enum class Unwinder {
  /// Works out each return address's rule once and caches it: a stack
  /// costs a few loads a frame (see the README for figures).
  kCached,
  /// glibc's backtrace(), which works out every frame's rule anew: the
  /// reference the cached unwinder is tested against.
  kBacktrace,
};

/// Whose allocations a capture records.
enum class CaptureThreads {
  /// The thread that constructed the capture.
  kThisThread,
  /// That thread's, and those of every thread with no capture of its own
  /// (the workers a test starts or hands its work to), into a table of their
  /// own that they share under a lock; their temporaries are not told. One
  /// such capture at a time in the process.
  kEveryThread,
};

/// Records the stack of every allocation the current thread makes (and that
/// is counted: not while paused) from construction until stop() or the end of
/// the object (with CaptureThreads::kEveryThread, other threads' too). The table is reserved up front, so the hook
/// never allocates; a stack beyond its capacity is counted as dropped. While no capture is on, the hook pays one branch
/// it already takes. Captures nest: the inner one takes over until it stops.
///
/// Capture costs an unwind per allocation (see the README for figures); turn
/// it on around the code under study, not around a benchmark's timed loop.
/// Stacks are unwound from the call-frame information of the loaded objects;
/// the few frames whose rules the cached unwinder does not follow (signal
/// frames, DWARF expressions, code generated at run time) send their stack
/// to backtrace().
class CaptureSites {
 public:
  /// Distinct stacks the table holds at most, whatever max_stacks asks for
  /// (each slot takes about 300 bytes).
  static constexpr std::size_t kMaxStacksLimit = std::size_t{1} << 20;

  /// Holds max_stacks distinct stacks (rounded up to a power of two, at
  /// most kMaxStacksLimit). The cached unwinder also reserves its rules for
  /// 4096 return addresses (128 KB); past them it works rules out uncached.
  explicit CaptureSites(std::size_t max_stacks = 1024, Unwinder unwinder = Unwinder::kCached,
                        CaptureThreads threads = CaptureThreads::kThisThread);
  ~CaptureSites();
  CaptureSites(const CaptureSites&) = delete;
  CaptureSites& operator=(const CaptureSites&) = delete;

  /// Stops capturing; later calls do nothing.
  void stop() noexcept;

  /// Forgets what was captured and captures again from here, on the calling
  /// thread, keeping the table and the unwinder's cached rules: one capture
  /// for many short regions (a test each) costs no table per region.
  void restart();

  /// Symbolizes what was captured (DWARF line tables through libdw) and
  /// removes the harness's own frames, and the outer frames each stack
  /// shares with the capture's callers: a stack begins at the function that
  /// constructed the capture. Paths under source_root are made
  /// relative to it; the others relative to the source tree their code was
  /// built from (the git work tree holding the compile directory, else the
  /// source directory of the CMake build tree holding it, else the tree
  /// holding the file), and absolute outside any; so profiles from two
  /// checkouts compare. A frame without symbol or line information reads
  /// "libname.so+0xOFFSET". Slow: call it once, after the code under study.
  /// SiteProfile::lines_missing() tells when no allocating frame had a line.
  SiteProfile profile(std::string_view source_root = {}) const;

 private:
  void begin();  // starts capturing on the calling thread
  friend SiteProfile detail::live_profile(const CaptureSites& capture, std::string_view source_root);
  std::unique_ptr<detail::StackTable> table_;
  std::vector<unsigned char> storage_;
  std::vector<unsigned char> rule_storage_;
  std::unique_ptr<detail::ReservedTable> others_;  // with CaptureThreads::kEveryThread
  detail::StackTable* outer_ = nullptr;
  bool active_ = false;
};

}  // namespace allocgate
