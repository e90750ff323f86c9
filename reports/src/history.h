// `allocgate history`: reports kept across commits in one SQLite database,
// so that "when did this hot path start allocating" has an answer. The gate
// never needs it: diff reads reports and bounds only.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "report.h"

struct sqlite3;

namespace allocgate::reports {

/// What a recorded run is known by. Adding a report whose key is recorded
/// already changes nothing.
struct RunKey {
  std::string commit, date, branch, toolchain, host;
};

/// The parts of a key given on the command line, over the report's context.
struct RunKeyOverrides {
  std::optional<std::string> commit, date, branch, toolchain, host;
};

/// The report's key: commit (context.git_commit), date, toolchain and host
/// (context.host_name) from its context, each overridable; the branch only
/// from the overrides. Throws InputError when there is no commit or date.
RunKey run_key(const Report& report, const RunKeyOverrides& overrides, const std::string& source);

/// One case's figures in one run.
struct HistoryFigures {
  double allocs_per_op = 0;
  std::optional<double> bytes_per_op, ns_median, ns_min, ns_max;
};

/// Cases by runs: what `history show` prints. figures[case][run] is absent
/// where the run did not have the case.
struct HistoryTable {
  std::vector<RunKey> runs;  ///< oldest first
  std::vector<std::string> cases;
  std::vector<std::vector<std::optional<HistoryFigures>>> figures;
};

/// An open history database: created when missing, migrated when older,
/// refused (InputError) when newer, foreign or corrupt. Writes are
/// transactions in WAL mode with a busy timeout, so concurrent writers all
/// land (several creating the same new database among them) and a writer
/// killed at any moment loses nothing committed before.
class History {
 public:
  /// The schema this allocgate writes; opening an older one migrates it.
  static constexpr int kSchemaVersion = 2;

  /// A reader neither creates, migrates nor writes the database, and leaves
  /// no file beside it that could change what a writer can do (on a
  /// database it may not write, not even SQLite's -wal and -shm).
  enum class Access { write, read };

  explicit History(const std::filesystem::path& file, Access access = Access::write);
  ~History();
  History(const History&) = delete;
  History& operator=(const History&) = delete;

  /// Records the report's figures under key; false when key is recorded already.
  bool add(const Report& report, const RunKey& key);

  /// The last `last` runs (0: all), oldest first, of the cases whose name
  /// matches the RE2 regular expression `filter` (empty: all).
  HistoryTable table(const std::string& filter, std::size_t last) const;

  int schema_version() const;

 private:
  sqlite3* db_ = nullptr;
  std::string source_;
};

/// Cases by runs, each figure's row marking (`*`) the run where it last
/// changed: a text table, or markdown.
void print_history(std::ostream& out, const HistoryTable& table, bool markdown);

/// A self-contained HTML page (history_chart.cpp): an SVG chart per case,
/// allocs/op and bytes/op exact, the time with its spread, each run where an
/// exact figure changed marked and labelled with its commit.
void print_history_chart(std::ostream& out, const HistoryTable& table);

}  // namespace allocgate::reports
