#include "heaptrack.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include "input_error.h"

extern char** environ;

namespace allocgate::reports {
namespace {

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && ::access((std::filesystem::path(dir) / program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

// Runs argv[0] from PATH; returns its exit status and what it wrote to stdout
// (its stderr goes to ours).
std::pair<int, std::string> run_process(const std::vector<std::string>& args) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) throw InputError("cannot create a pipe to run " + args[0]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    throw InputError("cannot run " + args[0]);
  }
  std::string output;
  char buffer[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    output.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, output};
}

}  // namespace

HeaptrackSummary parse_heaptrack_print(const std::string& text) {
  HeaptrackSummary summary;
  static const std::regex calls(R"(^calls to allocation functions: (\d+))");
  static const std::regex temporary(R"(^temporary memory allocations: (\d+))");
  static const std::regex peak(R"(^peak heap memory consumption: (\S+))");
  static const std::regex allocator(R"(^(\d+) calls to allocation functions with (\S+) peak consumption from$)");
  std::istringstream lines(text);
  bool in_allocators = false;
  std::smatch m;
  for (std::string line; std::getline(lines, line);) {
    if (line == "MOST CALLS TO ALLOCATION FUNCTIONS") in_allocators = true;
    if (line.rfind("PEAK MEMORY CONSUMERS", 0) == 0 || line.rfind("MOST TEMPORARY", 0) == 0) in_allocators = false;
    if (std::regex_search(line, m, calls)) summary.calls = std::stoull(m[1]);
    if (std::regex_search(line, m, temporary)) summary.temporary = std::stoull(m[1]);
    if (std::regex_search(line, m, peak)) summary.peak = m[1];
    if (in_allocators && std::regex_match(line, m, allocator)) {
      HeaptrackAllocator a{std::stoull(m[1]), m[2], {}, {}};
      if (std::getline(lines, line)) a.function = line;
      if (std::getline(lines, line)) {
        const auto at = line.find("  at ");
        const auto in = line.find("  in ");
        a.location = at == 0 ? line.substr(5) : in == 0 ? line.substr(5) : std::string();
      }
      summary.top.push_back(std::move(a));
    }
  }
  return summary;
}

HeaptrackSummary run_under_heaptrack(const std::string& self, const std::string& case_name, long runs,
                                     const std::string& out_prefix) {
  for (const char* tool : {"heaptrack", "heaptrack_print"}) {
    if (!on_path(tool)) throw InputError(std::string(tool) + " is not installed: apt-get install heaptrack");
  }
  const auto [code, log] =
      run_process({"heaptrack", "-o", out_prefix, self, "loop", case_name, "--runs", std::to_string(runs)});
  if (code != 0) throw InputError("heaptrack failed (exit " + std::to_string(code) + ") on " + case_name);
  // heaptrack appends its compressor's extension to -o.
  std::string data;
  for (const char* extension : {".zst", ".gz", ""}) {
    if (std::filesystem::exists(out_prefix + extension)) {
      data = out_prefix + extension;
      break;
    }
  }
  if (data.empty()) throw InputError("heaptrack wrote no data file at " + out_prefix + ".zst");
  const auto [print_code, text] = run_process({"heaptrack_print", "-f", data, "--print-peaks", "0",
                                               "--print-temporary", "0", "--print-leaks", "0", "-n", "5", "-s", "0"});
  if (print_code != 0) throw InputError("heaptrack_print failed on " + data);
  HeaptrackSummary summary = parse_heaptrack_print(text);
  summary.data_file = data;
  return summary;
}

}  // namespace allocgate::reports
