#include "benchmark_sites.h"

#include <map>
#include <mutex>
#include <ostream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "allocgate/guards.h"
#include "allocgate/report_keys.h"
#include "json_file.h"

namespace allocgate::benchmark::detail {
namespace {

struct Captured {
  SiteProfile profile;
  std::int64_t iterations = 0;
};

struct Registry {
  std::mutex mutex;
  Captured pending;                          // since the last attribute_captures
  std::map<std::string, Captured> by_name;  // run name -> its captures
};

Registry& registry() {
  static Registry r;
  return r;
}

// "--name=value" or "--name": the value, or nullptr when arg is another flag.
const char* flag_value(std::string_view arg, std::string_view name) {
  if (arg.substr(0, name.size()) != name) return nullptr;
  if (arg.size() == name.size()) return "";
  return arg[name.size()] == '=' ? arg.data() + name.size() + 1 : nullptr;
}

double per_iteration(std::uint64_t count, std::int64_t iterations) {
  return static_cast<double>(count) / static_cast<double>(iterations);
}

nlohmann::json sites_json(const Captured& c) {
  nlohmann::json sites = nlohmann::json::array();
  for (std::size_t i = 0; i < c.profile.sites.size() && i < kReportedSites; ++i) {
    const Site& site = c.profile.sites[i];
    sites.push_back({{keys::kFunction, site.where.function},
                     {keys::kFile, site.where.file},
                     {keys::kLine, site.where.line},
                     {keys::kAllocsPerOpField, per_iteration(site.count, c.iterations)},
                     {keys::kBytesPerOpField, per_iteration(site.bytes, c.iterations)}});
  }
  return sites;
}

nlohmann::json stacks_json(const Captured& c) {
  nlohmann::json stacks = nlohmann::json::array();
  for (std::size_t i = 0; i < c.profile.stacks.size() && i < kReportedStacks; ++i) {
    const StackSample& stack = c.profile.stacks[i];
    stacks.push_back({{keys::kFrames, stack.innermost_functions(kReportedFrames)},
                      {keys::kAllocsPerOpField, per_iteration(stack.count, c.iterations)}});
  }
  return stacks;
}

}  // namespace

SitesOptions& sites_options() {
  static SitesOptions options;
  return options;
}

bool take_sites_flags(int& argc, char** argv, std::ostream& err) {
  SitesOptions& options = sites_options();
  std::string format = "json";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (const char* v = flag_value(arg, "--allocgate_sites")) {
      const std::string_view value = v;
      if (value != "" && value != "true" && value != "false") {
        err << "allocgate: --allocgate_sites takes true or false, not '" << value << "'\n";
        return false;
      }
      options.enabled = value != "false";
      continue;
    }
    if (const char* v = flag_value(arg, "--allocgate_source_root")) {
      options.source_root = v;
      continue;
    }
    if (const char* v = flag_value(arg, "--benchmark_out")) options.json_file = v;
    if (const char* v = flag_value(arg, "--benchmark_out_format")) format = v;
    argv[kept++] = argv[i];
  }
  argc = kept;
  argv[argc] = nullptr;
  if (format != "json") options.json_file.clear();
  // Without --allocgate_source_root each frame's path is relative to the
  // source tree its code was built in (CaptureSites::profile).
  return true;
}

void add_capture(const CaptureSites& capture, std::int64_t iterations) {
  PauseCounting pause;
  const SiteProfile profile = capture.profile(sites_options().source_root);
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  r.pending.profile.merge(profile);
  r.pending.iterations += iterations;
}

void attribute_captures(const std::string& run_name) {
  PauseCounting pause;
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  if (r.pending.iterations == 0) return;
  Captured& named = r.by_name[run_name];
  named.profile.merge(r.pending.profile);
  named.iterations += r.pending.iterations;
  r.pending = Captured{};
}

void write_sites(std::ostream& console) {
  Registry& r = registry();
  const std::string& file = sites_options().json_file;
  if (file.empty()) {
    console << "\nallocation sites per iteration (--allocgate_sites):\n";
    for (const auto& [name, captured] : r.by_name) {
      console << name << ":\n";
      for (std::size_t i = 0; i < captured.profile.sites.size() && i < kReportedSites; ++i) {
        const Site& site = captured.profile.sites[i];
        console << "  " << per_iteration(site.count, captured.iterations) << " allocs/op: " << to_string(site.where)
                << "\n";
      }
    }
    return;
  }
  nlohmann::json json = files::read_json_file(file);
  for (auto& entry : json.at("benchmarks")) {
    // The iteration runs, and the mean where only aggregates are reported.
    if (entry.value(keys::kRunType, "") == "aggregate" && entry.value(keys::kAggregateName, "") != "mean") continue;
    const auto it = r.by_name.find(entry.value(keys::kRunName, ""));
    if (it == r.by_name.end() || it->second.iterations == 0) continue;
    entry[keys::kSites] = sites_json(it->second);
    entry[keys::kStacks] = stacks_json(it->second);
  }
  files::write_file_atomically(file, json.dump(2) + "\n");
}

}  // namespace allocgate::benchmark::detail
