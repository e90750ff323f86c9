#include "filter.h"

#include "input_error.h"

namespace allocgate::reports {

std::regex filter_regex(const std::string& filter) {
  try {
    return std::regex(filter.empty() ? std::string(".") : filter);
  } catch (const std::regex_error& e) {
    throw InputError("--filter '" + filter + "' is not a regular expression: " + e.what());
  }
}

}  // namespace allocgate::reports
