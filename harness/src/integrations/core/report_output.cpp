// SPDX-License-Identifier: Apache-2.0
// Where a counted suite's report goes, and how it is written there (see
// report_output.h).
#include "integrations/core/report_output.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "allocgate/guards.h"
#include "atomic_write.h"
#include "escape.h"
#include "integrations/core/git_context.h"
#include "integrations/core/run_options.h"

namespace allocgate::integrations {
namespace {

struct Output {
  std::string path;
  std::string (*running)() = nullptr;
  pid_t process = 0;  // a fork of it (a death test's child) is not the run
  std::atomic<bool> done{false};
};

Output& output() {
  static Output* o = new Output;  // never destroyed: read by the exit handlers
  return *o;
}

// At std::exit or std::quick_exit before the report was written (a test
// called one): says so in one line, as the exit status may be 0. The report
// of an earlier run was emptied when this one began.
void ended_before_the_report() {
  const Output& o = output();
  if (o.done.load() || ::getpid() != o.process) return;
  const PauseCounting pause;
  std::string line = "allocgate: the run ended (std::exit or std::quick_exit)";
  if (o.running != nullptr) {
    if (const std::string test = o.running(); !test.empty()) line += " in " + test;
  }
  std::cerr << files::terminal_text(line) << " before its report was written: no report at "
            << files::terminal_text(o.path) << std::endl;
}

// The run's exit status, whatever main returns, once the report failed:
// first of the exit handlers (the last registered), so the program's own
// still see their streams, which are flushed here.
[[noreturn]] void exit_report_not_written() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(kReportNotWritten);
}

// A regular file an earlier run left at the path, emptied (through any
// symlink: the link, the file's mode and owner stay); a FIFO or a device is
// nothing of an earlier run's and is not touched, nor opened in a way that
// could block. A file this run may not write is removed: the report
// replaces it at the end, keeping its mode.
void empty_earlier_report(const std::string& path) {
  struct stat st {};
  // Opened only when a regular file: a FIFO's reader, opened and closed on,
  // would read its end.
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return;
  const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd >= 0) {
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::ftruncate(fd, 0) != 0) {
      // Left as it is: the report replaces it at the end.
    }
    ::close(fd);
    return;
  }
  if (errno != EACCES) return;
  try {
    ::unlink(files::replaced_file(path).c_str());
  } catch (const std::exception&) {
    // A link that cannot be read: the report's write says so at the end.
  }
}

}  // namespace

bool open_report(const std::string& out, const std::string& executable, std::string (*running)(), std::string& error) {
  const PauseCounting pause;
  Output& o = output();
  const std::string path = report_path(out, executable);
  // A report a process, as ctest runs each test: the next process of the
  // same binary reads the commit its predecessor got from git.
  if (path != out) keep_git_state_in(out);
  o.path = path;
  o.running = running;
  if (path.empty()) {
    o.done = true;
    return true;
  }
  // Written in place: a path naming a descriptor (/dev/stdout), a FIFO or
  // a character device, which must be writable now. Anything else is
  // replaced, through any symlink, by a file made in its target's directory.
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    error = "allocgate: report: " + files::terminal_text(path) + ": is a directory";
    return false;
  }
  std::string checked = path;
  const bool in_place = files::names_a_descriptor(path) || (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)));
  if (!in_place) {
    try {
      const std::filesystem::path directory = files::replaced_file(path).parent_path();
      checked = directory.empty() ? "." : directory.string();
    } catch (const std::exception& e) {
      error = std::string("allocgate: report: ") + files::terminal_text(e.what());
      return false;
    }
  }
  if (::access(checked.c_str(), W_OK) != 0) {
    error = "allocgate: report: " + files::terminal_text(path) + ": cannot write: " + std::strerror(errno);
    return false;
  }
  if (!in_place) empty_earlier_report(path);
  o.process = ::getpid();
  std::atexit(ended_before_the_report);
  std::at_quick_exit(ended_before_the_report);
  return true;
}

bool write_report(const TestReport& report, const std::string& executable, bool fail_at_exit) {
  const PauseCounting pause;
  Output& o = output();
  if (o.path.empty()) return true;
  // A FIFO whose reader went away is an error to say (EPIPE), not a
  // signal that ends the run without a word.
  struct sigaction ignore {
  }, before{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &before);
  struct RestorePipe {
    const struct sigaction& before;
    ~RestorePipe() { ::sigaction(SIGPIPE, &before, nullptr); }
  } restore{before};
  try {
    report.write(o.path, executable);
    o.done = true;
    return true;
  } catch (const std::exception& e) {
    o.done = true;  // said here
    std::cerr << "allocgate: report: " << files::terminal_text(e.what()) << '\n';
    if (fail_at_exit) std::atexit(exit_report_not_written);
    return false;
  }
}

}  // namespace allocgate::integrations
