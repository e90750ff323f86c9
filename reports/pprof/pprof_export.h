// SPDX-License-Identifier: Apache-2.0
// `allocgate export --format pprof`: a report's allocation sites as a pprof
// profile, for `go tool pprof` and the viewers that read its format.
#pragma once

#include <string>

#include "report.h"

namespace allocgate::reports {

/// The gzipped profile.proto of every site of every case: a sample per site,
/// its location the site's function, file and line, its values alloc_objects
/// and alloc_space per operation (rounded to whole numbers: pprof's values
/// are integers), labelled `case` with the case's name, so
/// `go tool pprof -tagfocus=case=NAME` narrows it to one case. Throws
/// InputError when no case has sites (the report was written without
/// --allocgate_sites or `run --sites`).
std::string pprof_profile(const Report& report, const std::string& source);

}  // namespace allocgate::reports
