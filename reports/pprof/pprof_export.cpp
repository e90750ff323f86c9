// SPDX-License-Identifier: Apache-2.0
#include "pprof_export.h"

#include <cmath>
#include <memory>

#include "input_error.h"
#include "pprof_writer.h"

namespace allocgate::reports {
namespace {

allocgate_pprof_text text(const std::string& s) { return {s.data(), s.size()}; }

std::int64_t whole(double per_op) { return std::llround(per_op); }

}  // namespace

std::string pprof_profile(const Report& report, const std::string& source) {
  const std::string comment = "allocgate: allocations per operation, toolchain " + report.toolchain();
  const std::unique_ptr<allocgate_pprof, void (*)(allocgate_pprof*)> profile(allocgate_pprof_new(text(comment)),
                                                                             allocgate_pprof_delete);
  std::size_t samples = 0;
  for (const CaseResult& c : report.cases) {
    for (const SiteSummary& site : c.sites) {
      const SiteFrame& where = site.where();
      const allocgate_pprof_frame frame{text(where.function), text(where.file), where.line};
      allocgate_pprof_add_sample(profile.get(), &frame, 1, whole(site.allocs_per_op), whole(site.bytes_per_op),
                                 text(c.name));
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
