// SPDX-License-Identifier: Apache-2.0
// --allocgate_sites for benchmark binaries: each benchmark's stacks kept
// and attributed to its run (see benchmark_sites.h).
#include "integrations/benchmark/benchmark_sites.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <ostream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "allocgate/guards.h"
#include "capture/site_summary.h"
#include "escape.h"
#include "integrations/core/flag_value.h"
#include "json_file.h"

namespace allocgate::benchmark::detail {
namespace {

struct Captured {
  SiteProfile profile;
  std::int64_t iterations = 0;
};

struct Registry {
  std::mutex mutex;
  Captured pending;                         // since the last attribute_captures
  std::map<std::string, Captured> by_name;  // run name -> its captures
};

Registry& registry() {
  static Registry r;
  return r;
}

using integrations::flag_value;

// The captures' summary per iteration, as every report holds it.
site_summary::Summary summary(const Captured& c) {
  return site_summary::summarize(c.profile, static_cast<double>(c.iterations));
}

}  // namespace

SitesOptions& sites_options() {
  static SitesOptions options;
  return options;
}

bool take_sites_flags(int& argc, char** argv, std::ostream& err) {
  SitesOptions& options = sites_options();
  // The environment first, as Google Benchmark reads BENCHMARK_OUT; a flag
  // overrides it. A main that takes no flags of its own is given sites so.
  const char* const environment = std::getenv("ALLOCGATE_SITES");
  if (environment != nullptr && *environment != '\0') {
    const std::string_view value = environment;
    if (value != "1" && value != "0" && value != "true" && value != "false") {
      err << "allocgate: ALLOCGATE_SITES takes 1 or 0 (true or false), not '" << files::terminal_text(value) << "'\n";
      return false;
    }
    options.enabled = value == "1" || value == "true";
  }
  if (const char* root = std::getenv("ALLOCGATE_SOURCE_ROOT")) options.source_root = root;
  if (const char* out = std::getenv("BENCHMARK_OUT")) options.json_file = out;
  const char* const out_format = std::getenv("BENCHMARK_OUT_FORMAT");
  std::string format = out_format != nullptr && *out_format != '\0' ? out_format : "json";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (const char* v = flag_value(arg, "--allocgate_sites")) {
      const std::string_view value = v;
      if (value != "" && value != "true" && value != "false") {
        err << "allocgate: --allocgate_sites takes true or false, not '" << files::terminal_text(value) << "'\n";
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
  if (argv != nullptr) argv[argc] = nullptr;  // none when a main never calls Initialize
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

bool unattributed_captures() {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  return r.pending.iterations != 0;
}

void write_sites(std::ostream& console) {
  Registry& r = registry();
  const std::string& file = sites_options().json_file;
  if (file.empty()) {
    console << "\nallocation sites per iteration (--allocgate_sites):\n";
    for (const auto& [name, captured] : r.by_name) {
      console << name << ":\n";
      for (const site_summary::SiteSummary& site : summary(captured).sites) {
        console << "  " << site.allocs_per_op << " allocs/op: " << to_string(site.where()) << "\n";
      }
    }
    return;
  }
  nlohmann::json json = files::read_json_file(file);
  for (auto& entry : json.at("benchmarks")) {  // Google Benchmark's JSON, its keys
    // The iteration runs, and the mean where only aggregates are reported.
    if (entry.value("run_type", "") == "aggregate" && entry.value("aggregate_name", "") != "mean") continue;
    const auto it = r.by_name.find(entry.value("run_name", ""));
    if (it == r.by_name.end() || it->second.iterations == 0) continue;
    const site_summary::Summary s = summary(it->second);
    entry[site_summary::keys::kSites] = site_summary::sites_json(s.sites);
    entry[site_summary::keys::kStacks] = site_summary::stacks_json(s.stacks);
  }
  files::write_file_atomically(file, json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace allocgate::benchmark::detail
