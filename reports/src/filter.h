// `--filter`, as `run` and `history` read it.
#pragma once

#include <regex>
#include <string>

namespace allocgate::reports {

/// The ECMAScript regex a --filter gives, searched in case names; an empty
/// filter matches every name. Throws InputError when it is not a regex.
std::regex filter_regex(const std::string& filter);

}  // namespace allocgate::reports
