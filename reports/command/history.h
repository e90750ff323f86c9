// SPDX-License-Identifier: Apache-2.0
// `allocgate history`'s storage: reports kept across commits in one SQLite
// database, so that "when did this hot path start allocating" has an answer;
// read out as a HistoryTable (model/history_table.h). The gate never needs
// it: diff reads reports and bounds only.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "history_table.h"
#include "report.h"

struct sqlite3;

namespace allocgate::reports {

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
  /// database it may not write, not even SQLite's -wal and -shm). It reads
  /// an older schema, and the commits in the -wal of a file it may not
  /// write, from a private copy, removed when it closes.
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
  void open(const std::string& name, bool read_only);
  void prepare_for_writing();
  void open_private_copy();
  void close();

  sqlite3* db_ = nullptr;
  std::string source_;
  std::filesystem::path private_copy_;  ///< where a reader reads a copy; empty when it reads the file
};

}  // namespace allocgate::reports
