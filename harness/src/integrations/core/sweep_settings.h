// SPDX-License-Identifier: Apache-2.0
// What a suite asks of the failure sweep (failure_sweep.h), whatever
// framework runs it: each setting a variable (ALLOCGATE_FAIL_EACH, _AT,
// _REST, _SEED, _TIMEOUT) and a flag spelled the framework's way
// (--allocgate_fail_each for GoogleTest, --allocgate-fail-each for Catch2
// and doctest). Framework-free: prebuilt in allocgate::integration_support.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "integrations/core/failure_sweep.h"

namespace allocgate::integrations {

/// The sweep asked for, once every variable and flag is read.
struct SweepRequest {
  std::optional<SweepOptions> sweep;     ///< --allocgate_fail_each: every test swept
  std::optional<std::uint64_t> fail_at;  ///< --allocgate_fail_at=K: each test with allocation K failing
  bool fail_rest = false;                ///< --allocgate_fail_rest: every later allocation failing too
  /// With a sweep: the line that says it (its points, the seed that draws
  /// them again), for the adapter to print as the suite starts.
  std::string announcement;
};

/// As a test's run is about to begin, before any of its code, on its
/// thread: arms --allocgate_fail_at's failure, or sweeps the run (`test`
/// names it), `sweep` made at the first. In the parent, the run's sweep; in
/// a child, nullopt, armed, to run the test. A sweep that cannot go on ends
/// the process, said in one line.
std::optional<SweepResult> begin_swept_run(const SweepRequest& request, std::optional<FailureSweep>& sweep,
                                           const std::string& test);

/// A run's sweep as its parent reports it, the same for every framework: a
/// sweep not to be trusted said on standard error, the findings that the
/// bounds file marks on purpose under `toolchain` marked; then the message
/// that fails the run ("allocation failures:" and a line per finding left,
/// its command as findings_text takes it), or empty when none is left.
std::string sweep_failure(const std::string& test, SweepResult& result, const char* toolchain,
                          const std::string& before, const std::string& after = {});

/// A word for a POSIX shell, quoted: a finding's command runs as it reads
/// whatever its names hold.
std::string shell_word(std::string_view text);

class SweepSettings {
 public:
  /// `flag_prefix`: "--allocgate_fail_" or "--allocgate-fail-".
  explicit SweepSettings(std::string flag_prefix) : prefix_(std::move(flag_prefix)) {}

  /// The variables. False, with a one-line `error`, on a bad value.
  bool from_environment(std::string& error);
  /// 1: `arg` is one of the sweep's flags, taken; 0: it is not; -1: a bad
  /// value, said in `error`. Alone, the each flag is "sites" and the rest flag on.
  int take_flag(std::string_view arg, std::string& error);
  /// The request, its sample's seed drawn when none was given.
  SweepRequest settle(const std::string& source_root);
  /// "--allocgate_fail_each[=sites|all|N], --allocgate_fail_rest, ...": for
  /// an unknown flag's message.
  std::string flags_text() const;

 private:
  bool set(std::string_view setting, const std::string& value, std::string_view spelled, std::string& error);

  std::string prefix_;
  std::optional<std::string> each_;
  SweepOptions options_;
  bool seeded_ = false;
  std::optional<std::uint64_t> fail_at_;
  bool fail_rest_ = false;
};

}  // namespace allocgate::integrations
