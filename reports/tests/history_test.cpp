// SPDX-License-Identifier: Apache-2.0
// The history database: runs recorded once, figures read back by case and
// run with their last change marked, schemas migrated or refused, foreign and
// corrupt files refused, concurrent and killed writers losing nothing.

#include "history.h"

#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "command.h"
#include "history_table.h"
#include "input_error.h"
#include "json_keys.h"
#include "page.h"
#include "page_text.h"

namespace {

using namespace allocgate::reports;
using namespace allocgate::files;
namespace k = allocgate::reports::keys;

Report report_of(std::initializer_list<std::pair<const char*, double>> cases, const std::string& commit = "c1",
                 const std::string& date = "2026-12-01T00:00:00Z") {
  Report r;
  r.context = {
      {k::kSchemaVersion, kReportSchemaVersion}, {k::kToolchain, "tc"}, {k::kGitCommit, commit}, {k::kDate, date}};
  for (const auto& [name, allocs] : cases) {
    CaseResult c;
    c.name = name;
    c.allocs_per_op = allocs;
    c.bytes_per_op = allocs * 32;
    c.ns_median = 100;
    c.ns_min = 90;
    c.ns_max = 110;
    r.cases.push_back(c);
  }
  return r;
}

RunKey key_of(const Report& r) { return run_key(r, {}, "r.json"); }

void sql(const std::string& file, const std::string& text) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, text.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

// A database as schema 1 wrote it (no time spread): one run, a/x/1 at 7 allocs/op.
void write_schema_1(const std::string& file) {
  sql(file, R"sql(
    CREATE TABLE runs (id INTEGER PRIMARY KEY, commit_id TEXT NOT NULL, date TEXT NOT NULL, branch TEXT NOT NULL,
                       toolchain TEXT NOT NULL, host TEXT NOT NULL, UNIQUE (commit_id, date, branch, toolchain, host));
    CREATE TABLE figures (run_id INTEGER NOT NULL REFERENCES runs (id), name TEXT NOT NULL,
                          allocs_per_op REAL NOT NULL, bytes_per_op REAL, ns_median REAL,
                          PRIMARY KEY (run_id, name)) WITHOUT ROWID;
    INSERT INTO runs VALUES (1, 'c0', '2026-11-01', '', 'tc', 'h');
    INSERT INTO figures VALUES (1, 'a/x/1', 7, 224, 100);
    PRAGMA application_id = 1634166833;
    PRAGMA user_version = 1;
  )sql");
}

std::string error_of(const std::string& file) {
  try {
    History h(file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(opened)";
}

class HistoryTest : public allocgate::reports::testing::ScratchDirTest {};

TEST_F(HistoryTest, ARunIsRecordedOnceAndReadBackByCaseAndRun) {
  History db(path("h.db"));
  EXPECT_EQ(db.schema_version(), History::kSchemaVersion);
  const Report first = report_of({{"a/x/1", 3}, {"b/x/1", 0}});
  EXPECT_TRUE(db.add(first, key_of(first)));
  EXPECT_FALSE(db.add(first, key_of(first)));  // the same run again: nothing changes
  const Report second = report_of({{"a/x/1", 3}, {"b/x/1", 2}}, "c2", "2026-12-02T00:00:00Z");
  EXPECT_TRUE(db.add(second, key_of(second)));
  RunKeyOverrides other_branch;
  other_branch.branch = "topic";
  EXPECT_TRUE(db.add(second, run_key(second, other_branch, "r.json")));  // another key: another run

  const HistoryTable t = db.table("", 0);
  ASSERT_EQ(t.runs.size(), 3u);
  EXPECT_EQ(t.runs[0].commit, "c1");
  EXPECT_EQ(t.runs[2].branch, "topic");
  ASSERT_EQ(t.cases, (std::vector<std::string>{"a/x/1", "b/x/1"}));
  EXPECT_EQ(t.figures[1][0]->allocs_per_op, 0);
  EXPECT_EQ(t.figures[1][1]->allocs_per_op, 2);
  EXPECT_EQ(t.figures[1][1]->bytes_per_op, 64);
  EXPECT_EQ(t.figures[0][0]->ns_min, 90);

  const HistoryTable last = db.table("^b/", 2);
  ASSERT_EQ(last.runs.size(), 2u);
  EXPECT_EQ(last.runs[0].commit, "c2");
  EXPECT_EQ(last.cases, std::vector<std::string>{"b/x/1"});
}

// A run's commit string of a megabyte (any text a report's context holds):
// the page, whose every chart repeats each run's tooltip, stays small, and
// says what it cut.
TEST_F(HistoryTest, AHugeCommitStringIsCutOnThePageAndTheCutSaid) {
  History db(path("h.db"));
  const std::string huge(1 << 20, 'c');
  const Report first = report_of({{"a/x/1", 3}, {"b/x/1", 0}}, huge, "2026-12-01T00:00:00Z");
  ASSERT_TRUE(db.add(first, key_of(first)));
  const Report second = report_of({{"a/x/1", 3}, {"b/x/1", 2}}, "c2", "2026-12-02T00:00:00Z");
  ASSERT_TRUE(db.add(second, key_of(second)));
  std::ostringstream page;
  print_history_chart(page, db.table("", 0));
  EXPECT_LT(page.str().size(), huge.size());  // within 3x the input, and far less
  EXPECT_NE(page.str().find(std::string(128, 'c') + "... (" + std::to_string(huge.size() - 128) + " more bytes cut)"),
            std::string::npos);
  EXPECT_EQ(page.str().find(std::string(129, 'c')), std::string::npos);
}

// A history of more cases than a page shows (pages::Limits::kSections): the
// first in name order, the count said; the runs' labels and tooltips are
// carried once for every chart, not once per chart.
TEST_F(HistoryTest, AHistoryOfMoreCasesThanAPageShowsTheFirstAndSaysHowMany) {
  constexpr std::size_t kCases = allocgate::reports::pages::Limits::kSections + 7;
  History db(path("h.db"));
  for (const char* commit : {"c1", "c2"}) {
    Report r = report_of({}, commit);
    for (std::size_t i = 0; i < kCases; ++i) {
      CaseResult c;
      c.name = "BM_" + std::to_string(i);
      c.allocs_per_op = 1;
      r.cases.push_back(c);
    }
    ASSERT_TRUE(db.add(r, key_of(r)));
  }
  std::ostringstream out;
  print_history_chart(out, db.table("", 0));
  const std::string page = out.str();
  EXPECT_NE(page.find("The history holds " + std::to_string(kCases) + " cases; this page shows the first " +
                      std::to_string(allocgate::reports::pages::Limits::kSections) + " in name order"),
            std::string::npos);
  std::size_t sections = 0;
  for (std::size_t at = page.find("<section class=\"history\">"); at != std::string::npos;
       at = page.find("<section class=\"history\">", at + 1)) {
    ++sections;
  }
  EXPECT_EQ(sections, allocgate::reports::pages::Limits::kSections);
  const nlohmann::json data = allocgate::reports::page_text::page_data(page);
  ASSERT_EQ(data["axes"]["runs"]["labels"].size(), 2u);
  EXPECT_EQ(data["charts"][0]["labels"], "runs");
  EXPECT_FALSE(data["charts"][0].contains("tooltip_titles"));
}

TEST_F(HistoryTest, ShowMarksTheRunWhereEachExactFigureLastChanged) {
  History db(path("h.db"));
  const Report runs[] = {report_of({{"a/x/1", 3}}, "c1", "2026-12-01"), report_of({{"a/x/1", 4}}, "c2", "2026-12-02"),
                         report_of({{"a/x/1", 4}}, "c3", "2026-12-03")};
  for (const Report& r : runs) ASSERT_TRUE(db.add(r, key_of(r)));
  std::ostringstream out;
  print_history(out, db.table("", 0), false);
  // Figures right-aligned under their run; times are not marked: they vary.
  EXPECT_EQ(out.str(),
            "case   figure      c1     c2   c3\n"
            "a/x/1  allocs/op    3    4 *    4\n"
            "a/x/1  bytes/op    96  128 *  128\n"
            "a/x/1  ns/op      100    100  100\n"
            "* the run where a figure last changed; runs oldest first by date\n");
}

TEST_F(HistoryTest, AnOlderSchemaIsMigratedKeepingItsRuns) {
  const std::string file = path("old.db");
  write_schema_1(file);
  History db(file);
  EXPECT_EQ(db.schema_version(), 2);
  const Report r = report_of({{"a/x/1", 3}});
  EXPECT_TRUE(db.add(r, key_of(r)));
  const HistoryTable t = db.table("", 0);
  ASSERT_EQ(t.runs.size(), 2u);
  EXPECT_EQ(t.figures[0][0]->allocs_per_op, 7);
  EXPECT_FALSE(t.figures[0][0]->ns_min.has_value());  // schema 1 had none
  EXPECT_EQ(t.figures[0][1]->ns_min, 90);
}

TEST_F(HistoryTest, ANewerForeignOrCorruptFileIsBadInput) {
  const std::string newer = path("newer.db");
  { History db(newer); }
  sql(newer, "PRAGMA user_version = 3");
  EXPECT_EQ(error_of(newer), newer + ": history schema 3 is newer than this allocgate's (2); use a newer allocgate");

  const std::string foreign = path("foreign.db");
  sql(foreign, "CREATE TABLE t (x)");
  EXPECT_EQ(error_of(foreign), foreign + ": not an allocgate history database (another program's SQLite file)");

  const std::string text = path("text.db");
  std::ofstream(text) << "{\"not\": \"a database\"}\n";
  EXPECT_EQ(error_of(text), text + ": not a usable history database (file is not a database)");

  // A real database with its pages overwritten.
  const std::string damaged = path("damaged.db");
  {
    History db(damaged);
    const Report r = report_of({{"a/x/1", 3}});
    db.add(r, key_of(r));
  }
  sql(damaged, "PRAGMA wal_checkpoint(TRUNCATE)");
  {
    std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(0);
    f << std::string(100, 'x');
  }
  EXPECT_NE(error_of(damaged).find(": not a usable history database"), std::string::npos) << error_of(damaged);
}

TEST_F(HistoryTest, TwoWritersAtOnceBothLand) {
  const std::string file = path("h.db");
  constexpr int kRuns = 25;
  auto writer = [&](const std::string& commit_prefix) {
    History db(file);
    for (int i = 0; i < kRuns; ++i) {
      const Report r = report_of({{"a/x/1", double(i)}, {"b/x/1", 1}}, commit_prefix + std::to_string(i));
      EXPECT_TRUE(db.add(r, key_of(r)));
    }
  };
  std::thread a(writer, "a"), b(writer, "b");
  a.join();
  b.join();
  History db(file);
  EXPECT_EQ(db.table("", 0).runs.size(), 2u * kRuns);
}

// A writer SIGKILLed at random moments: every run it had committed (it says
// so on a pipe after each commit) is still there, and the file opens clean.
TEST_F(HistoryTest, AWriterKilledAtAnyMomentLosesNothingCommitted) {
  const std::string file = path("h.db");
  std::mt19937 random(7);
  int committed = 0;
  for (int round = 0; round < 10; ++round) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(fds[0]);
      History db(file);
      for (int i = 0;; ++i) {
        const Report r = report_of({{"a/x/1", 1}, {"b/x/1", 2}, {"c/x/1", 3}},
                                   std::to_string(round).append("-").append(std::to_string(i)));
        db.add(r, key_of(r));
        const char done = 1;
        if (::write(fds[1], &done, 1) != 1) ::_exit(1);
      }
    }
    ::close(fds[1]);
    ::usleep(std::uniform_int_distribution<useconds_t>(2000, 60000)(random));
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    char buffer[4096];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) committed += static_cast<int>(n);
    ::close(fds[0]);
    History db(file);  // opens: not corrupt
    const auto runs = db.table("", 0).runs.size();
    EXPECT_GE(runs, static_cast<std::size_t>(committed)) << "round " << round;
    EXPECT_LE(runs, static_cast<std::size_t>(committed) + 1) << "round " << round;  // one committed, not yet said
    committed = static_cast<int>(runs);
  }
  EXPECT_GT(committed, 0);  // the writer got to commit at all
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* check = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &check, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(check), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(check, 0)), "ok");
  sqlite3_finalize(check);
  sqlite3_close(db);
}

TEST(RunKey, ComesFromTheContextUnlessOverridden) {
  const Report r = report_of({{"a/x/1", 1}});
  const RunKey key = run_key(r, {}, "r.json");
  EXPECT_EQ(key.commit, "c1");
  EXPECT_EQ(key.toolchain, "tc");
  EXPECT_EQ(key.branch, "");
  RunKeyOverrides overrides;
  overrides.commit = "abc";
  overrides.host = "ci-7";
  EXPECT_EQ(run_key(r, overrides, "r.json").commit, "abc");
  EXPECT_EQ(run_key(r, overrides, "r.json").host, "ci-7");
  Report anonymous = r;
  anonymous.context.erase(k::kGitCommit);
  EXPECT_THROW(run_key(anonymous, {}, "r.json"), InputError);
}

}  // namespace

namespace {

class HistoryFiles : public allocgate::reports::testing::ScratchDirTest {};

// A schema version no allocgate wrote, a table gone, a directory: one line,
// bad input, and nothing read out of bounds.
TEST_F(HistoryFiles, ADamagedSchemaIsBadInput) {
  const std::string negative = path("negative.db");
  { History db(negative); }
  sql(negative, "PRAGMA user_version = -1");
  EXPECT_EQ(error_of(negative), negative + ": not a usable history database (schema version -1)");

  const std::string missing = path("missing.db");
  {
    History db(missing);
    const Report r = report_of({{"a/x/1", 3}});
    db.add(r, key_of(r));
  }
  sql(missing, "DROP TABLE case_names");
  const auto show = [](const std::string& file) {
    try {
      History(file, History::Access::read).table("", 0);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(read)");
  };
  EXPECT_EQ(show(missing), missing + ": not a usable history database (no such table: case_names)");
  EXPECT_EQ(show(path("absent.db")), path("absent.db") + ": no such history database");
  EXPECT_EQ(error_of(dir_.string()), dir_.string() + ": is a directory, not a history database");
}

// A reader of a database it may not write leaves nothing beside it: SQLite's
// -wal and -shm would carry the file's read-only mode and refuse every later
// writer. (As root too: the mode, not the permission check, decides.)
TEST_F(HistoryFiles, AReaderOfAReadOnlyDatabaseLeavesNoFileBehind) {
  const std::string file = path("h.db");
  {
    History db(file);
    const Report r = report_of({{"a/x/1", 3}});
    db.add(r, key_of(r));
  }
  ASSERT_FALSE(std::filesystem::exists(file + "-wal"));
  std::filesystem::permissions(file, std::filesystem::perms::owner_read | std::filesystem::perms::group_read);
  {
    // While it reads, too: a connection that could write would have the
    // -wal and -shm open now, and as root delete them only when it closes.
    const History reader(file, History::Access::read);
    EXPECT_EQ(reader.table("", 0).runs.size(), 1u);
    EXPECT_FALSE(std::filesystem::exists(file + "-wal"));
    EXPECT_FALSE(std::filesystem::exists(file + "-shm"));
  }
  EXPECT_FALSE(std::filesystem::exists(file + "-wal"));
  EXPECT_FALSE(std::filesystem::exists(file + "-shm"));
  std::filesystem::permissions(file, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  History db(file);
  const Report r = report_of({{"a/x/1", 4}}, "c2");
  EXPECT_TRUE(db.add(r, key_of(r)));
}

// The files of a directory and their sizes: what a reader must leave as it was.
std::map<std::string, std::uintmax_t> files_in(const std::filesystem::path& dir) {
  std::map<std::string, std::uintmax_t> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files[entry.path().string()] = entry.file_size();
  return files;
}

// A writer that was killed (or is still running) leaves its commits in the
// -wal; a reader of the file, even one it may not write, sees them, and
// changes no file.
TEST_F(HistoryFiles, AReaderOfAReadOnlyDatabaseSeesTheCommitsInItsWal) {
  const std::string file = path("h.db");
  {
    History db(file);
    const Report r = report_of({{"a/x/1", 3}});
    db.add(r, key_of(r));
  }
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto* db = new History(file);  // never closed: its commit stays in the -wal
    const Report r = report_of({{"a/x/1", 4}}, "c2");
    ::_exit(db->add(r, key_of(r)) ? 0 : 1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_GT(std::filesystem::file_size(file + "-wal"), 0u);
  std::filesystem::permissions(file, std::filesystem::perms::owner_read | std::filesystem::perms::group_read);
  const auto before = files_in(dir_);
  {
    const History reader(file, History::Access::read);
    const HistoryTable t = reader.table("", 0);
    ASSERT_EQ(t.runs.size(), 2u);
    EXPECT_EQ(t.figures[0][1]->allocs_per_op, 4);
  }
  EXPECT_EQ(files_in(dir_), before);
}

// A reader reads an older schema as it is: no `history add` needed first, and
// the file keeps its schema.
TEST_F(HistoryFiles, AReaderReadsAnOlderSchemaWithoutMigratingIt) {
  const std::string file = path("old.db");
  write_schema_1(file);
  const auto before = files_in(dir_);
  {
    const History reader(file, History::Access::read);
    const HistoryTable t = reader.table("", 0);
    ASSERT_EQ(t.runs.size(), 1u);
    ASSERT_EQ(t.cases, std::vector<std::string>{"a/x/1"});
    EXPECT_EQ(t.figures[0][0]->allocs_per_op, 7);
  }
  EXPECT_EQ(files_in(dir_), before);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* version = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &version, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(version), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(version, 0), 1);
  sqlite3_finalize(version);
  sqlite3_close(db);
}

// A case name is text of any bytes a report may hold, a NUL among them: read
// back whole, two names that differ after a NUL stay two cases.
TEST_F(HistoryFiles, NamesHoldingANulAreReadBackWhole) {
  const std::string file = path("h.db");
  const std::string x("a\0x", 3), y("a\0y", 3);
  History db(file);
  Report r = report_of({{"a", 1}, {"b", 2}});
  for (std::size_t i = 0; i < 2; ++i) {
    CaseResult c = r.cases[i];
    c.name = i == 0 ? x : y;
    r.cases.set(i, c);
  }
  ASSERT_TRUE(db.add(r, key_of(r)));
  const HistoryTable t = db.table("", 0);
  EXPECT_EQ(t.cases, (std::vector<std::string>{x, y}));
}

// Several jobs adding to a history that does not exist yet: each creates the
// schema or waits for the one that does, and every run lands.
TEST_F(HistoryFiles, WritersCreatingANewDatabaseAtOnceAllLand) {
  const std::string bin = ALLOCGATE_BIN;
  for (int round = 0; round < 10; ++round) {
    const std::string db = path(std::to_string(round) + ".db");
    std::string command;
    for (int i = 0; i < 8; ++i) {
      const std::string report = path(std::to_string(i) + ".report.json");
      std::ofstream(report) << R"({"context": {"allocgate_schema_version": 1, "allocgate_toolchain": "tc",
        "git_commit": "c)" << i
                            << R"(", "date": "2026-12-01"}, "benchmarks": [{"name": "w/v/1", "allocs_per_op": 1}]})";
      command += bin + " history --db " + db + " add " + report + " > /dev/null 2>" + report + ".err & ";
    }
    const auto done = allocgate::reports::testing::run(command + "wait; cat " + path("*.report.json.err"));
    EXPECT_EQ(done.output, "") << "round " << round;
    EXPECT_EQ(History(db, History::Access::read).table("", 0).runs.size(), 8u) << "round " << round;
  }
}

}  // namespace
