#include "filter.h"

#include "input_error.h"

#if ALLOCGATE_HAVE_RE2
#include <re2/re2.h>
#endif

namespace allocgate::reports {

#if ALLOCGATE_HAVE_RE2

namespace {

// RE2's error text is a std::string of the standard library RE2 was built
// with, which need not be this build's: its code, spelled here, is not.
const char* error_text(RE2::ErrorCode code) {
  switch (code) {
    case RE2::ErrorBadEscape: return "bad escape sequence";
    case RE2::ErrorBadCharClass: return "bad character class";
    case RE2::ErrorBadCharRange: return "bad character class range";
    case RE2::ErrorMissingBracket: return "missing ]";
    case RE2::ErrorMissingParen: return "missing ) or unexpected )";
    case RE2::ErrorTrailingBackslash: return "trailing \\";
    case RE2::ErrorRepeatArgument: return "repetition of nothing (*, + or ? with nothing before it)";
    case RE2::ErrorRepeatSize: return "bad repetition count";
    case RE2::ErrorRepeatOp: return "bad repetition operator";
    case RE2::ErrorBadPerlOp: return "bad (? group";
    case RE2::ErrorBadUTF8: return "invalid UTF-8";
    case RE2::ErrorBadNamedCapture: return "bad named capture";
    case RE2::ErrorPatternTooLarge: return "pattern too large";
    default: return "not a regular expression";
  }
}

}  // namespace

NameFilter::NameFilter(const std::string& pattern) {
  if (pattern.empty()) return;
  RE2::Options options;
  options.set_log_errors(false);
  re_ = std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re_->ok()) {
    throw InputError("--filter '" + pattern + "' is not a regular expression (RE2 syntax): " +
                     error_text(re_->error_code()));
  }
}

bool NameFilter::matches(std::string_view name) const {
  return re_ == nullptr || RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), *re_);
}

#else  // a build against another standard library than RE2's (libc++)

NameFilter::NameFilter(const std::string& pattern) {
  if (!pattern.empty()) {
    throw InputError("--filter needs RE2, which this allocgate was built without (its standard library is not "
                     "the one Debian's RE2 was built with)");
  }
}

bool NameFilter::matches(std::string_view) const { return true; }

#endif

NameFilter::~NameFilter() = default;
NameFilter::NameFilter(NameFilter&&) noexcept = default;
NameFilter& NameFilter::operator=(NameFilter&&) noexcept = default;

}  // namespace allocgate::reports
