// SPDX-License-Identifier: Apache-2.0
#include "pprof_export.h"

#include <cmath>
#include <memory>

#include "escape.h"
#include "input_error.h"
#include "pprof_writer.h"

namespace allocgate::reports {
namespace {

allocgate_pprof_text text(const std::string& s) { return {s.data(), s.size()}; }

// A name as pprof shows it: protobuf's strings are UTF-8, and pprof prints
// them to a terminal or a CI log. Escaped as every printer of allocgate's
// escapes (control characters, invalid UTF-8, a workflow command).
std::string shown(const std::string& name) { return files::terminal_text(name); }

std::int64_t whole(double per_op) { return std::llround(per_op); }

}  // namespace

std::string pprof_profile(const Report& report, const std::string& source) {
  const std::string comment = "allocgate: allocations per operation, toolchain " + shown(report.toolchain());
  const std::unique_ptr<allocgate_pprof, void (*)(allocgate_pprof*)> profile(allocgate_pprof_new(text(comment)),
                                                                             allocgate_pprof_delete);
  std::size_t samples = 0;
  for (const CaseResult& c : report.cases) {
    const std::string name = shown(c.name);
    for (const SiteSummary& site : c.sites) {
      const SiteFrame& where = site.where();
      const std::string function = shown(where.function), file = shown(where.file);
      const allocgate_pprof_frame frame{text(function), text(file), where.line};
      allocgate_pprof_add_sample(profile.get(), &frame, 1, whole(site.allocs_per_op), whole(site.bytes_per_op),
                                 text(name));
      ++samples;
    }
  }
  if (samples == 0) {
    throw files::InputError(source +
                            ": no case has sites to profile: write the report with --allocgate_sites (a benchmark "
                            "or test binary) or `allocgate run --sites`");
  }
  std::size_t size = 0;
  const std::unique_ptr<char, void (*)(char*)> gzipped(allocgate_pprof_gzipped(profile.get(), &size),
                                                       allocgate_pprof_free_buffer);
  if (!gzipped) throw std::runtime_error("the pprof profile could not be serialized");
  return std::string(gzipped.get(), size);
}

}  // namespace allocgate::reports
