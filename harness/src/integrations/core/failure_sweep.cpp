// SPDX-License-Identifier: Apache-2.0
// A test swept under allocation failure: its points, the child run per
// point, the outcomes and their findings (see failure_sweep.h).
#include "integrations/core/failure_sweep.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>

#include "allocgate/guards.h"
#include "allocgate/report_keys.h"
#include "bounds_file.h"
#include "capture/stack_site.h"
#include "counting/thread_state.h"
#include "escape.h"

namespace allocgate::integrations {

// What the parent read of one child.
struct SweepChildRun {
  std::string data;  // the records
  bool hung = false;
  int status = 0;  // waitpid's
};

namespace {

// What a child tells its parent, each record a header and its payload.
enum class RecordKind : std::uint32_t {
  kPlan = 1,     // a = attempts, b = points that follow (std::uint64_t each), then c ranges of attempts
                 // [first, end) that are no points (two std::uint64_t each)
  kFired = 2,    // a = frames that follow (void* each): the failing allocation's stack
  kEnded = 3,    // a = outcome, b = leaked blocks, c = leaked bytes
  kFailure = 4,  // a = bytes that follow: the test's first failure, as the framework said it
};
struct RecordHeader {
  RecordKind kind;
  std::uint32_t unused = 0;
  std::uint64_t a = 0, b = 0, c = 0;
};

// Writes all of it, as far as the pipe takes it: a parent gone away is no
// reason for the child to do anything else.
void write_all(int fd, const void* data, std::size_t size) noexcept {
  const char* at = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, at, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    at += n;
    size -= static_cast<std::size_t>(n);
  }
}

// The child's side, read by the hook's call on each attempt: no allocation
// in it (the hook calls it from inside operator new).
struct ChildState {
  int fd = -1;
  bool planning = false;
  bool sites = false;  // planning: each attempt's stack, for the first of each
  bool fired_sent = false;
  std::uint64_t attempts = 0;
  std::vector<std::uint64_t> points;  // reserved before the test: the first attempt of each stack
  std::vector<std::uint64_t> seen;    // open addressing, of stack hashes; 0 is empty
  // planning: the framework's own attempts, told after they were made
  // (framework_since_mark), as [first, end) pairs; reserved before the test.
  std::uint64_t marked = 0;
  std::vector<std::uint64_t> not_points;
};
ChildState g_child;

constexpr std::size_t kMostSites = 1u << 16;           // a test's distinct stacks kept as points; the rest not tried
constexpr std::size_t kMostNotPointRanges = 1u << 10;  // past these, the framework's attempts are points
constexpr std::size_t kLongestFailure = 300;           // bytes of a swallowed failure's message kept

bool first_of_its_stack(std::uint64_t hash) noexcept {
  if (hash == 0) hash = 1;
  const std::size_t mask = g_child.seen.size() - 1;
  for (std::size_t i = hash & mask, probes = 0; probes <= mask; i = (i + 1) & mask, ++probes) {
    if (g_child.seen[i] == hash) return false;
    if (g_child.seen[i] == 0) {
      g_child.seen[i] = hash;
      return true;
    }
  }
  return false;  // full: no more points
}

}  // namespace
}  // namespace allocgate::integrations

namespace allocgate::detail {

// The hook's call on each attempt of the armed thread (thread_state.h):
// named in allocgate::detail, so that a site never takes it for the code's.
void sweep_attempt(bool failing) noexcept {
  using integrations::g_child;
  ThreadState& t = thread_state();
  ++t.pause_depth;  // what unwinding allocates (a first backtrace()) is neither an attempt nor the test's
  t.refresh_mode();
  void* frames[kMaxUnwindFrames];
  std::uint64_t hash = 0;
  FrameRuleCache no_cache;
  if (g_child.planning) {
    ++g_child.attempts;
    if (g_child.sites && g_child.points.size() < g_child.points.capacity()) {
      unwind_stack(frames, kMaxUnwindFrames, no_cache, hash);
      if (integrations::first_of_its_stack(hash)) g_child.points.push_back(g_child.attempts - 1);
    }
  } else if (failing && !g_child.fired_sent) {
    g_child.fired_sent = true;
    const int depth = unwind_stack(frames, kMaxUnwindFrames, no_cache, hash);
    const integrations::RecordHeader header{integrations::RecordKind::kFired, 0, static_cast<std::uint64_t>(depth)};
    integrations::write_all(g_child.fd, &header, sizeof header);
    integrations::write_all(g_child.fd, frames, sizeof(void*) * static_cast<std::size_t>(depth));
  }
  --t.pause_depth;
  t.refresh_mode();
}

}  // namespace allocgate::detail

namespace allocgate::integrations {
namespace {

void arm(std::uint64_t countdown, bool rest, bool tell) {
  detail::ThreadState& t = detail::thread_state();
  t.fail_countdown = countdown;
  t.fail_rest = rest;
  t.failure_fired = false;
  t.on_attempt = tell ? detail::sweep_attempt : nullptr;
  t.mode |= detail::kFailureArmed;
}

[[noreturn]] void terminated_in_child() {
  const RecordHeader ended{RecordKind::kEnded, 0, static_cast<std::uint64_t>(SweepOutcome::kTerminated)};
  write_all(g_child.fd, &ended, sizeof ended);
  ::_exit(0);
}

// Reads the child's pipe to its end, or until the time limit; then reaps it.
void wait_for(pid_t pid, int fd, unsigned timeout_seconds, SweepChildRun& run) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  char buffer[4096];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      run.hung = true;
      break;
    }
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline, checked above
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the child, and whatever it forked, closed it
    run.data.append(buffer, static_cast<std::size_t>(n));
  }
  if (run.hung) ::kill(pid, SIGKILL);
  while (::waitpid(pid, &run.status, 0) < 0 && errno == EINTR) {
  }
  ::close(fd);
}

// The records of a run, by kind.
struct Records {
  std::optional<RecordHeader> plan, fired, ended;
  std::vector<std::uint64_t> points;
  std::vector<std::uint64_t> not_points;  // [first, end) pairs
  std::vector<void*> frames;
  std::string failure;
};

Records parse(const std::string& data) {
  Records r;
  std::size_t at = 0;
  while (data.size() - at >= sizeof(RecordHeader)) {
    RecordHeader h;
    std::memcpy(&h, data.data() + at, sizeof h);
    at += sizeof h;
    const std::size_t item = h.kind == RecordKind::kPlan      ? sizeof(std::uint64_t)
                             : h.kind == RecordKind::kFailure ? 1
                                                              : sizeof(void*);
    const std::uint64_t items = h.kind == RecordKind::kPlan                                      ? h.b + 2 * h.c
                                : h.kind == RecordKind::kFired || h.kind == RecordKind::kFailure ? h.a
                                                                                                 : 0;
    if (h.kind == RecordKind::kPlan && (h.b > kMostSites || h.c > kMostNotPointRanges)) break;
    if (items > (data.size() - at) / item) break;  // cut short: the child died writing it
    if (h.kind == RecordKind::kPlan) {
      r.plan = h;
      r.points.resize(h.b);
      std::memcpy(r.points.data(), data.data() + at, h.b * item);
      r.not_points.resize(2 * h.c);
      std::memcpy(r.not_points.data(), data.data() + at + h.b * item, 2 * h.c * item);
    } else if (h.kind == RecordKind::kFired) {
      r.fired = h;
      r.frames.resize(items);
      std::memcpy(r.frames.data(), data.data() + at, items * item);
    } else if (h.kind == RecordKind::kEnded) {
      r.ended = h;
    } else if (h.kind == RecordKind::kFailure) {
      r.failure.assign(data, at, items);
    }
    at += items * item;
  }
  return r;
}

std::string signal_text(int signal) {
  const char* name = ::sigabbrev_np(signal);
  return "signal " + std::to_string(signal) + (name != nullptr ? std::string(" (SIG") + name + ")" : std::string());
}

// The line of a finding's failing allocation: the program's own innermost
// frame, as sites name it.
std::string line_of(const std::vector<void*>& frames, const std::string& source_root) {
  const SiteProfile where = detail::profile_of_stack(frames.data(), static_cast<int>(frames.size()), source_root);
  if (where.sites.empty()) return {};
  const SiteFrame& f = where.sites.front().where;
  return f.function + (f.file.empty() ? std::string() : " (" + f.file + ":" + std::to_string(f.line) + ")");
}

bool read_all(int fd, void* data, std::size_t size) {
  char* at = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, at, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// Names findings' lines in a helper process. Symbolizing loads the program's
// debug information (tens of MB for a large test program) into the process
// that does it, and every fork after copies that process's page tables and
// tears them down again: a sweeping process that had symbolized paid about
// three times as much a point. The helper is forked at the first finding,
// while the sweeping process is still lean, and serves the rest of the run.
class LineNamer {
 public:
  std::string line_of(const std::vector<void*>& frames, const std::string& source_root) {
    if (pid_ < 0 && !start(source_root)) return integrations::line_of(frames, source_root);
    const std::uint64_t depth = frames.size();
    write_all(to_, &depth, sizeof depth);
    write_all(to_, frames.data(), sizeof(void*) * frames.size());
    std::uint64_t length = 0;
    std::string line;
    if (read_all(from_, &length, sizeof length) && length <= kLongestLine) {
      line.resize(length);
      if (!read_all(from_, line.data(), length)) line.clear();
    }
    return line;
  }

 private:
  bool start(const std::string& source_root) {
    int requests[2], answers[2];
    if (::pipe2(requests, O_CLOEXEC) != 0) return false;
    if (::pipe2(answers, O_CLOEXEC) != 0) {
      ::close(requests[0]);
      ::close(requests[1]);
      return false;
    }
    const pid_t pid = ::fork();
    if (pid < 0) return false;
    if (pid == 0) {
      ::close(requests[1]);
      ::close(answers[0]);
      std::vector<void*> frames;
      for (std::uint64_t depth = 0; read_all(requests[0], &depth, sizeof depth) && depth <= kMostFrames;) {
        frames.resize(depth);
        if (!read_all(requests[0], frames.data(), sizeof(void*) * depth)) break;
        std::string line = integrations::line_of(frames, source_root);
        if (line.size() > kLongestLine) line.resize(kLongestLine);
        const std::uint64_t length = line.size();
        write_all(answers[1], &length, sizeof length);
        write_all(answers[1], line.data(), line.size());
      }
      ::_exit(0);  // the sweeping process closed its end: it is done
    }
    ::close(requests[0]);
    ::close(answers[1]);
    pid_ = pid;
    to_ = requests[1];
    from_ = answers[0];
    return true;
  }

  static constexpr std::uint64_t kMostFrames = 1024;
  static constexpr std::uint64_t kLongestLine = 64 * 1024;
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
};

LineNamer& line_namer() {
  static LineNamer namer;
  return namer;
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

const char* outcome_name(SweepOutcome outcome) {
  static_assert(std::size(keys::kSweepOutcomes) == kSweepOutcomes);
  return keys::kSweepOutcomes[static_cast<std::size_t>(outcome)];
}

bool parse_fail_each(const std::string& value, SweepOptions& options) {
  if (value.empty() || value == "sites" || value == "1" || value == "true") {
    options.points = SweepOptions::Points::kSites;
    return true;
  }
  if (value == "all") {
    options.points = SweepOptions::Points::kAll;
    return true;
  }
  if (value.find_first_not_of("0123456789") != std::string::npos || value.size() > 9 || value == "0") return false;
  options.points = SweepOptions::Points::kSample;
  options.sample = std::stoull(value);
  return true;
}

// Forks a child that runs the test; true in the child, set up to run it.
// In the parent, waits for it and fills `run`.
bool FailureSweep::fork_run(bool planning, std::uint64_t point, SweepChildRun* run) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);  // what the parent printed is not printed again by the child
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    child_fd_ = fds[1];
    g_child.fd = fds[1];
    g_child.planning = planning;
    g_child.sites = planning && options_.points == SweepOptions::Points::kSites;
    if (g_child.sites) {
      g_child.points.reserve(kMostSites);
      g_child.seen.assign(2 * kMostSites, 0);
    }
    if (planning) g_child.not_points.reserve(2 * kMostNotPointRanges);
    if (const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC); null >= 0) {
      ::dup2(null, STDOUT_FILENO);
      ::dup2(null, STDERR_FILENO);
      ::close(null);
    }
    std::set_terminate(terminated_in_child);
    arm(planning ? ~std::uint64_t{0} : point, !planning && options_.rest, true);
    return true;
  }
  ::close(fds[1]);
  wait_for(pid, fds[0], options_.timeout_seconds, *run);
  return false;
}

std::optional<SweepResult> FailureSweep::sweep_test(const std::string& test) {
  const PauseCounting pause;
  SweepResult result;
  // Twice unfailed: the attempts, and the points, must agree.
  Records plans[2];
  for (Records& plan : plans) {
    SweepChildRun run;
    if (fork_run(true, 0, &run)) return std::nullopt;
    plan = parse(run.data);
    if (!plan.plan) {
      result.nondeterministic = true;  // it did not end: said by the test's own run
      return result;
    }
  }
  const Records& plan = plans[0];
  result.nondeterministic =
      plan.plan->a != plans[1].plan->a || plan.points != plans[1].points || plan.not_points != plans[1].not_points;
  // The framework's own attempts keep their numbers (a failing child counts
  // them too) but are no points, nor the test's attempts.
  result.attempts = plan.plan->a;
  for (std::size_t i = 0; i < plan.not_points.size(); i += 2)
    result.attempts -= plan.not_points[i + 1] - plan.not_points[i];
  std::vector<std::uint64_t> points;
  switch (options_.points) {
    case SweepOptions::Points::kSites:
      points = plan.points;
      break;
    case SweepOptions::Points::kAll:
    case SweepOptions::Points::kSample:
      points.reserve(result.attempts);
      for (std::uint64_t i = 0, range = 0; i < plan.plan->a; ++i) {
        while (range < plan.not_points.size() && i >= plan.not_points[range + 1]) range += 2;
        if (range < plan.not_points.size() && i >= plan.not_points[range]) continue;
        points.push_back(i);
      }
      if (options_.points == SweepOptions::Points::kSample && points.size() > options_.sample) {
        // The same draw for the same seed and test, whichever tests run.
        std::seed_seq seed{static_cast<std::uint32_t>(options_.seed), static_cast<std::uint32_t>(options_.seed >> 32),
                           static_cast<std::uint32_t>(std::hash<std::string>{}(test))};
        std::mt19937_64 random(seed);
        std::shuffle(points.begin(), points.end(), random);
        points.resize(options_.sample);
        std::sort(points.begin(), points.end());
      }
      break;
  }
  for (const std::uint64_t point : points) {
    SweepChildRun run;
    if (fork_run(false, point, &run)) return std::nullopt;
    const Records r = parse(run.data);
    SweepFinding finding;
    finding.point = point;
    if (run.hung) {
      finding.outcome = SweepOutcome::kHung;
      finding.detail = "killed after " + plural(options_.timeout_seconds, "second", "seconds");
    } else if (r.ended) {
      finding.outcome = static_cast<SweepOutcome>(r.ended->a);
      if (finding.outcome == SweepOutcome::kLeaked) {
        finding.detail = plural(r.ended->c, "byte", "bytes") + " in " + plural(r.ended->b, "block", "blocks");
      } else if (finding.outcome == SweepOutcome::kSwallowed && !r.failure.empty()) {
        finding.detail = "first failure: " + r.failure;
      }
    } else if (WIFSIGNALED(run.status)) {
      finding.outcome = SweepOutcome::kCrashed;
      finding.detail = signal_text(WTERMSIG(run.status));
    } else {
      finding.outcome = SweepOutcome::kCrashed;
      finding.detail = "exited with status " + std::to_string(WEXITSTATUS(run.status)) + " before the test ended";
    }
    if (!r.fired && finding.outcome != SweepOutcome::kHung) finding.outcome = SweepOutcome::kNotReached;
    ++result.tried;
    ++result.outcomes[static_cast<std::size_t>(finding.outcome)];
    if (finding.outcome == SweepOutcome::kNotReached) result.nondeterministic = true;
    if (!is_finding(finding.outcome)) continue;
    if (!r.frames.empty()) finding.line = line_namer().line_of(r.frames, options_.source_root);
    result.findings.push_back(std::move(finding));
  }
  return result;
}

void FailureSweep::point_ended(bool passed, bool bad_alloc_escaped, std::uint64_t leaked_blocks,
                               std::uint64_t leaked_bytes, std::string_view first_failure) {
  detail::ThreadState& t = detail::thread_state();
  t.mode &= ~static_cast<std::uint32_t>(detail::kFailureArmed);
  t.on_attempt = nullptr;
  if (g_child.planning) {
    const RecordHeader plan{RecordKind::kPlan, 0, g_child.attempts, g_child.points.size(),
                            g_child.not_points.size() / 2};
    write_all(child_fd_, &plan, sizeof plan);
    write_all(child_fd_, g_child.points.data(), sizeof(std::uint64_t) * g_child.points.size());
    write_all(child_fd_, g_child.not_points.data(), sizeof(std::uint64_t) * g_child.not_points.size());
    ::_exit(0);
  }
  SweepOutcome outcome = SweepOutcome::kSwallowed;
  if (!t.failure_fired) {
    outcome = SweepOutcome::kNotReached;
  } else if (leaked_blocks != 0) {
    outcome = SweepOutcome::kLeaked;
  } else if (passed) {
    outcome = SweepOutcome::kHandled;
  } else if (bad_alloc_escaped) {
    outcome = SweepOutcome::kPropagated;
  }
  // What a swallowed failure became: the message's lines on one, cut.
  std::string said;
  for (const char c : first_failure.substr(0, kLongestFailure)) {
    if (c != '\n') {
      said += c;
    } else if (!said.empty() && said.back() != ' ') {
      said += " | ";
    }
  }
  const RecordHeader failure{RecordKind::kFailure, 0, said.size()};
  write_all(child_fd_, &failure, sizeof failure);
  write_all(child_fd_, said.data(), said.size());
  const RecordHeader ended{RecordKind::kEnded, 0, static_cast<std::uint64_t>(outcome), leaked_blocks, leaked_bytes};
  write_all(child_fd_, &ended, sizeof ended);
  ::_exit(0);
}

void FailureSweep::arm_here(std::uint64_t point, bool rest) { arm(point, rest, false); }

void FailureSweep::mark() noexcept { g_child.marked = g_child.attempts; }

void FailureSweep::framework_since_mark() noexcept {
  if (!g_child.planning || g_child.marked >= g_child.attempts) return;
  if (g_child.not_points.size() + 2 > g_child.not_points.capacity()) return;  // no allocation here
  g_child.not_points.push_back(g_child.marked);
  g_child.not_points.push_back(g_child.attempts);
  while (!g_child.points.empty() && g_child.points.back() >= g_child.marked) g_child.points.pop_back();
  g_child.marked = g_child.attempts;
}

void FailureSweep::stop_failing() {
  detail::ThreadState& t = detail::thread_state();
  t.mode &= ~static_cast<std::uint32_t>(detail::kFailureArmed);
  t.fail_rest = false;
}

void FailureSweep::disarm() {
  detail::ThreadState& t = detail::thread_state();
  t.mode &= ~static_cast<std::uint32_t>(detail::kFailureArmed);
  t.fail_rest = false;
  t.failure_fired = false;
  t.on_attempt = nullptr;
}

std::size_t FailureSweep::mark_on_purpose(const std::string& test, const char* toolchain, SweepResult& result) {
  const PauseCounting pause;  // the bounds file is not the test's
  // ALLOCGATE_BOUNDS's file, read at the first swept test with findings.
  static const std::optional<bounds::BoundsFile> recorded = []() -> std::optional<bounds::BoundsFile> {
    const char* file = std::getenv("ALLOCGATE_BOUNDS");
    if (file == nullptr || *file == '\0') return std::nullopt;
    try {
      return bounds::read_bounds(file);
    } catch (const std::exception& e) {
      std::cerr << "allocgate: the failure sweep marks nothing on purpose: " << files::terminal_text(e.what()) << "\n";
      return std::nullopt;
    }
  }();
  std::optional<bounds::Bound> bound;
  if (recorded) {
    const auto section = recorded->toolchains.find(toolchain);
    if (section != recorded->toolchains.end()) bound = section->second.find(test);
  }
  std::size_t left = 0;
  for (SweepFinding& f : result.findings) {
    if (bound && bound->sweep) {
      for (const bounds::KnownFinding& known : *bound->sweep) {
        f.on_purpose =
            f.on_purpose || (known.on_purpose && bounds::same_finding(known, outcome_name(f.outcome), f.line));
      }
    }
    if (!f.on_purpose) ++left;
  }
  return left;
}

std::string FailureSweep::findings_text(const std::string& test, const SweepResult& result, const std::string& before,
                                        const std::string& after) {
  std::ostringstream out;
  for (const SweepFinding& f : result.findings) {
    if (f.on_purpose) continue;
    out << test << ": with allocation " << f.point << " of " << result.attempts << " failing";
    if (!f.line.empty()) out << ", at " << files::terminal_text(f.line);
    out << ": " << outcome_name(f.outcome);
    if (!f.detail.empty()) out << ", " << files::terminal_text(f.detail);
    out << "; alone: " << before << f.point << after << "\n";
  }
  return out.str();
}

}  // namespace allocgate::integrations
