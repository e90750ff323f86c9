// SPDX-License-Identifier: Apache-2.0
#include "history.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <ostream>
#include <stdexcept>
#include <thread>
#include <utility>

#include <unistd.h>

#include "escape.h"
#include "filter.h"
#include "input_error.h"
#include "json_keys.h"
#include "name_order.h"

namespace allocgate::reports {

namespace k = allocgate::reports::keys;

namespace {

// PRAGMA application_id: "agh1", so that another program's SQLite file is
// refused instead of having tables added to it.
constexpr int kApplicationId = 0x61676831;

// Each step takes the schema from its index to the next; a new database runs
// them all. Schema 1 kept the median time only; 2 adds its spread, an index
// that makes one case's history a range read, and the case names apart, so
// that listing them does not scan every figure.
constexpr const char* kMigrations[] = {
    R"sql(
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        commit_id TEXT NOT NULL, date TEXT NOT NULL, branch TEXT NOT NULL,
        toolchain TEXT NOT NULL, host TEXT NOT NULL,
        UNIQUE (commit_id, date, branch, toolchain, host));
      CREATE TABLE figures (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        name TEXT NOT NULL,
        allocs_per_op REAL NOT NULL, bytes_per_op REAL, ns_median REAL,
        PRIMARY KEY (run_id, name)) WITHOUT ROWID;
    )sql",
    R"sql(
      ALTER TABLE figures ADD COLUMN ns_min REAL;
      ALTER TABLE figures ADD COLUMN ns_max REAL;
      CREATE INDEX figures_by_name ON figures (name, run_id);
      CREATE TABLE case_names (name TEXT PRIMARY KEY) WITHOUT ROWID;
      INSERT INTO case_names SELECT DISTINCT name FROM figures;
    )sql",
};
static_assert(std::size(kMigrations) == History::kSchemaVersion);

// A prepared statement, finalized when it goes.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql, const std::string& source) : db_(db), source_(source) {
    check(sqlite3_prepare_v2(db, sql, -1, &statement_, nullptr), sql);
  }
  ~Statement() { sqlite3_finalize(statement_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& text) {
    check(sqlite3_bind_text(statement_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT), "bind");
    return *this;
  }
  Statement& bind(int i, std::int64_t value) {
    check(sqlite3_bind_int64(statement_, i, value), "bind");
    return *this;
  }
  Statement& bind(int i, const std::optional<double>& value) {
    check(value ? sqlite3_bind_double(statement_, i, *value) : sqlite3_bind_null(statement_, i), "bind");
    return *this;
  }
  /// True while there is a row.
  bool step() {
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW) return true;
    check(rc == SQLITE_DONE ? SQLITE_OK : rc, "step");
    return false;
  }
  void reset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  std::string text(int column) const {
    // Whole, by its length: a case name may hold a NUL.
    const auto* p = sqlite3_column_text(statement_, column);
    const int bytes = sqlite3_column_bytes(statement_, column);
    return p == nullptr ? std::string()
                        : std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(bytes));
  }
  std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }
  std::optional<double> real(int column) const {
    if (sqlite3_column_type(statement_, column) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_double(statement_, column);
  }

 private:
  void check(int rc, const char* what) const;

  sqlite3* db_;
  const std::string& source_;
  sqlite3_stmt* statement_ = nullptr;
};

// A file that is not a database, or a damaged one, is bad input; anything
// else SQLite reports is a failure of allocgate's own.
[[noreturn]] void fail(sqlite3* db, int rc, const std::string& source, const std::string& what) {
  const std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  const int primary = rc & 0xff;
  // A table or column missing from a database whose schema version says it
  // has them: damaged by hand, not by allocgate.
  const bool damaged_schema =
      primary == SQLITE_ERROR && (message.rfind("no such table", 0) == 0 || message.rfind("no such column", 0) == 0);
  if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT || damaged_schema) {
    throw files::InputError(source + ": not a usable history database (" + message + ")");
  }
  if (primary == SQLITE_FULL || primary == SQLITE_IOERR) {
    throw files::InputError(source + ": cannot write: " + message + "; nothing of this run was recorded");
  }
  if (primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY || primary == SQLITE_PERM) {
    throw files::InputError(source + ": cannot open: " + message);
  }
  throw std::runtime_error(source + ": " + what + ": " + message);
}

void Statement::check(int rc, const char* what) const {
  if (rc != SQLITE_OK) fail(db_, rc, source_, what);
}

void exec(sqlite3* db, const char* sql, const std::string& source) {
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) fail(db, rc, source, sql);
}

std::int64_t pragma(sqlite3* db, const char* sql, const std::string& source) {
  Statement s(db, sql, source);
  return s.step() ? s.integer(0) : 0;
}

// Rolls back unless committed: an exception midway leaves the file as it was.
class Transaction {
 public:
  Transaction(sqlite3* db, const std::string& source) : db_(db), source_(source) {
    exec(db, "BEGIN IMMEDIATE", source);  // takes the write lock now: waits, never deadlocks
  }
  ~Transaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    exec(db_, "COMMIT", source_);
    done_ = true;
  }

 private:
  sqlite3* db_;
  const std::string& source_;
  bool done_ = false;
};

// WAL lets readers run beside a writer, and a killed writer's commits stay.
// Switching takes an exclusive lock without calling the busy handler, so two
// processes opening a new database at once retry here; an existing one is
// in WAL already (the mode is kept in the file).
void set_wal(sqlite3* db, const std::string& source) {
  for (int attempt = 0;; ++attempt) {
    const int rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) return;
    if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) fail(db, rc, source, "PRAGMA journal_mode=WAL");
    if (attempt == 3000) fail(db, rc, source, "PRAGMA journal_mode=WAL (locked for 30 s)");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Refuses another program's SQLite file: one with tables but not allocgate's
// application id. Read inside a transaction, so that a database another job
// is creating reads as either empty or whole, never as tables without the id.
void check_identity(sqlite3* db, const std::string& source) {
  const std::int64_t application = pragma(db, "PRAGMA application_id", source);
  const bool tables = pragma(db, "SELECT count(*) FROM sqlite_master", source) != 0;
  if (application != kApplicationId && (application != 0 || tables)) {
    throw files::InputError(source + ": not an allocgate history database (another program's SQLite file)");
  }
}

void check_version(std::int64_t version, const std::string& source) {
  if (version > History::kSchemaVersion) {
    throw files::InputError(source + ": history schema " + std::to_string(version) +
                            " is newer than this allocgate's (" + std::to_string(History::kSchemaVersion) +
                            "); use a newer allocgate");
  }
  if (version < 0) {
    throw files::InputError(source + ": not a usable history database (schema version " + std::to_string(version) +
                            ")");
  }
}

// A file: URI for sqlite3_open_v2, its path's reserved characters escaped.
std::string uri_of(const std::string& path, bool immutable) {
  std::string uri = "file:";
  for (const char c : path) {
    if (c == '?' || c == '#' || c == '%') {
      static const char* const kHex = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[static_cast<unsigned char>(c) >> 4];
      uri += kHex[static_cast<unsigned char>(c) & 0xf];
    } else {
      uri += c;
    }
  }
  return uri + (immutable ? "?mode=ro&immutable=1" : "?mode=ro");
}

}  // namespace

History::History(const std::filesystem::path& file, Access access) : source_(file.string()) {
  const bool reader = access == Access::read;
  std::error_code error;
  const auto status = std::filesystem::status(file, error);
  if (std::filesystem::is_directory(status))
    throw files::InputError(source_ + ": is a directory, not a history database");
  if (reader && !std::filesystem::exists(status)) throw files::InputError(source_ + ": no such history database");
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    throw files::InputError(source_ + ": not a regular file");
  }
  // A reader opens the file read-only; one it may not write, as immutable:
  // SQLite then creates no -wal or -shm beside it, which would carry the
  // file's read-only mode and refuse every later writer. Immutable ignores a
  // -wal, though, so a file it may not write whose -wal holds commits is
  // read from a private copy of both, as is an older schema, which a reader
  // must not migrate in place.
  const bool read_only_file =
      ::access(source_.c_str(), W_OK) != 0 ||
      (status.permissions() & std::filesystem::perms::owner_write) == std::filesystem::perms::none;
  const std::filesystem::path wal = source_ + "-wal";
  const bool pending_wal = std::filesystem::is_regular_file(wal, error) && std::filesystem::file_size(wal, error) > 0;
  if (reader && read_only_file && pending_wal) {
    open_private_copy();
    return;
  }
  open(reader ? uri_of(source_, read_only_file) : source_, reader);
  try {
    if (reader) {
      const std::int64_t version = pragma(db_, "PRAGMA user_version", source_);
      check_version(version, source_);
      if (version < kSchemaVersion) open_private_copy();
      return;
    }
    prepare_for_writing();
  } catch (...) {
    close();
    throw;
  }
}

void History::open(const std::string& name, bool read_only) {
  const int rc = read_only ? sqlite3_open_v2(name.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr)
                           : sqlite3_open_v2(name.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    close();
    throw files::InputError(source_ + ": cannot open: " + message);
  }
  try {
    sqlite3_busy_timeout(db_, 30000);  // another writer holds the lock: wait for it
    sqlite3_extended_result_codes(db_, 1);
    // Refused before anything is written to it, in a read transaction.
    exec(db_, "BEGIN", source_);
    check_identity(db_, source_);
    exec(db_, "COMMIT", source_);
  } catch (...) {
    close();
    throw;
  }
}

// WAL mode, and the schema created or migrated to this allocgate's.
void History::prepare_for_writing() {
  set_wal(db_, source_);
  // In WAL mode NORMAL loses no commit when the process is killed (only on
  // a power cut), at one fsync per checkpoint instead of one per commit.
  exec(db_, "PRAGMA synchronous=NORMAL", source_);
  exec(db_, "PRAGMA mmap_size=268435456", source_);  // reads without a system call per page
  exec(db_, "PRAGMA foreign_keys=ON", source_);
  Transaction migrate(db_, source_);
  check_identity(db_, source_);  // under the write lock, again: another job may have created it since
  const std::int64_t version = pragma(db_, "PRAGMA user_version", source_);
  check_version(version, source_);
  for (auto v = version; v < kSchemaVersion; ++v) exec(db_, kMigrations[v], source_);
  if (version < kSchemaVersion) {
    exec(db_, ("PRAGMA application_id=" + std::to_string(kApplicationId)).c_str(), source_);
    exec(db_, ("PRAGMA user_version=" + std::to_string(kSchemaVersion)).c_str(), source_);
  }
  migrate.commit();
}

// The database and its -wal copied into a directory of this process's own
// and opened there as a writer would (SQLite replays the -wal's commits and
// the schema is migrated), so the file itself is never touched.
void History::open_private_copy() {
  close();
  std::string dir = (std::filesystem::temp_directory_path() / "allocgate-history-XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr) throw std::runtime_error(source_ + ": cannot make a directory to read it in");
  private_copy_ = dir;
  try {
    const std::filesystem::path copy = private_copy_ / "history.db";
    std::error_code error;
    std::filesystem::copy_file(source_, copy, error);
    if (error) throw files::InputError(source_ + ": cannot read: " + error.message());
    if (std::filesystem::exists(source_ + "-wal")) {
      std::filesystem::copy_file(source_ + "-wal", copy.string() + "-wal", error);
      if (error) throw files::InputError(source_ + "-wal: cannot read: " + error.message());
    }
    open(copy.string(), false);
    prepare_for_writing();
  } catch (...) {
    close();
    throw;
  }
}

void History::close() {
  sqlite3_close(db_);
  db_ = nullptr;
  if (!private_copy_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(private_copy_, ignored);
    private_copy_.clear();
  }
}

History::~History() { close(); }

int History::schema_version() const { return static_cast<int>(pragma(db_, "PRAGMA user_version", source_)); }

bool History::add(const Report& report, const RunKey& key) {
  Transaction transaction(db_, source_);
  Statement run(db_,
                "INSERT INTO runs (commit_id, date, branch, toolchain, host) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                source_);
  run.bind(1, key.commit).bind(2, key.date).bind(3, key.branch).bind(4, key.toolchain).bind(5, key.host).step();
  if (sqlite3_changes(db_) == 0) return false;  // recorded already: rolled back, nothing changed
  const std::int64_t run_id = sqlite3_last_insert_rowid(db_);
  Statement figure(db_,
                   "INSERT INTO figures (run_id, name, allocs_per_op, bytes_per_op, ns_median, ns_min, ns_max) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)",
                   source_);
  Statement name(db_, "INSERT INTO case_names (name) VALUES (?) ON CONFLICT DO NOTHING", source_);
  for (const CaseResult& c : report.cases) {
    name.bind(1, c.name).step();
    name.reset();
    figure.bind(1, run_id).bind(2, c.name).bind(3, std::optional<double>(c.allocs_per_op)).bind(4, c.bytes_per_op);
    figure.bind(5, c.ns_median).bind(6, c.ns_min).bind(7, c.ns_max).step();
    figure.reset();
  }
  transaction.commit();
  return true;
}

HistoryTable History::table(const std::string& filter, std::size_t last) const {
  const NameFilter pattern(filter);
  HistoryTable table;
  std::map<std::int64_t, std::size_t> column_of;  // run id -> column
  {
    // The last runs, newest first, then turned around.
    Statement runs(db_,
                   "SELECT id, commit_id, date, branch, toolchain, host FROM runs "
                   "ORDER BY date DESC, id DESC LIMIT ?",
                   source_);
    runs.bind(1, last == 0 ? std::int64_t{-1} : static_cast<std::int64_t>(last));
    std::vector<std::int64_t> ids;
    while (runs.step()) {
      ids.push_back(runs.integer(0));
      table.runs.push_back(RunKey{runs.text(1), runs.text(2), runs.text(3), runs.text(4), runs.text(5)});
    }
    std::reverse(ids.begin(), ids.end());
    std::reverse(table.runs.begin(), table.runs.end());
    for (std::size_t i = 0; i < ids.size(); ++i) column_of[ids[i]] = i;
  }
  if (table.runs.empty()) return table;
  // The names first (from the index), then each matching case's figures
  // by the index: one case over 10,000 runs reads its 10,000 rows, not all.
  Statement names(db_, "SELECT name FROM case_names ORDER BY name", source_);
  while (names.step()) {
    std::string name = names.text(0);
    if (pattern.matches(name)) table.cases.push_back(std::move(name));
  }
  std::stable_sort(table.cases.begin(), table.cases.end(), name_before);  // numbers by value
  Statement figures(db_,
                    "SELECT run_id, allocs_per_op, bytes_per_op, ns_median, ns_min, ns_max FROM figures "
                    "WHERE name = ? AND run_id >= ?",
                    source_);
  std::vector<std::string> kept;
  for (const std::string& name : table.cases) {
    std::vector<std::optional<HistoryFigures>> row(table.runs.size());
    bool any = false;
    figures.bind(1, name).bind(2, column_of.begin()->first);
    while (figures.step()) {
      const auto column = column_of.find(figures.integer(0));
      if (column == column_of.end()) continue;
      row[column->second] = HistoryFigures{figures.real(1).value_or(0), figures.real(2), figures.real(3),
                                           figures.real(4), figures.real(5)};
      any = true;
    }
    figures.reset();
    if (!any) continue;  // only in runs older than the last ones
    kept.push_back(name);
    table.figures.push_back(std::move(row));
  }
  table.cases = std::move(kept);
  return table;
}

}  // namespace allocgate::reports
