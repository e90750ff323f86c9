// SPDX-License-Identifier: Apache-2.0
// A case's allocation stacks as the tree a flame graph draws (page.js, with
// d3-flame-graph): frames merged from the outermost by function, so that each
// call path is one tower, each frame with what the stacks through it
// allocate per operation, its file:line and the fix hint of the site it is.
// Frames outside the measured code (libc's start, main, allocgate's runner)
// are left out.
#pragma once

#include <nlohmann/json.hpp>

#include "report.h"

namespace allocgate::reports {

/// {name, location, hint, figures: [allocs, bytes, temporaries], children}, the
/// root named after the case; null when the case has no stacks.
nlohmann::json flame_tree(const CaseResult& c);

/// The stacks of both cases in one tree: figures are the head's, base the
/// base's, change what happened to the frame's allocs/op (new, grown, shrunk,
/// gone, same) and width what it is drawn as wide as: the head's allocs/op,
/// or the base's where a stack is gone, so that what went away is seen.
/// Null when neither case has stacks.
nlohmann::json differential_flame_tree(const CaseResult& base, const CaseResult& head);

}  // namespace allocgate::reports
