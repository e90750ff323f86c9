// SPDX-License-Identifier: Apache-2.0
#include "re2_shim.h"

#include <re2/re2.h>

struct allocgate_re2 {
  explicit allocgate_re2(re2::StringPiece pattern, const RE2::Options& options) : re(pattern, options) {}
  RE2 re;
};

namespace {

// What RE2::error() would say, without its std::string.
const char* error_text(RE2::ErrorCode code) {
  switch (code) {
    case RE2::ErrorBadEscape:
      return "bad escape sequence";
    case RE2::ErrorBadCharClass:
      return "bad character class";
    case RE2::ErrorBadCharRange:
      return "bad character class range";
    case RE2::ErrorMissingBracket:
      return "missing ]";
    case RE2::ErrorMissingParen:
      return "missing ) or unexpected )";
    case RE2::ErrorTrailingBackslash:
      return "trailing \\";
    case RE2::ErrorRepeatArgument:
      return "repetition of nothing (*, + or ? with nothing before it)";
    case RE2::ErrorRepeatSize:
      return "bad repetition count";
    case RE2::ErrorRepeatOp:
      return "bad repetition operator";
    case RE2::ErrorBadPerlOp:
      return "bad (? group";
    case RE2::ErrorBadUTF8:
      return "invalid UTF-8";
    case RE2::ErrorBadNamedCapture:
      return "bad named capture";
    case RE2::ErrorPatternTooLarge:
      return "pattern too large";
    default:
      return "not a regular expression";
  }
}

}  // namespace

extern "C" {

allocgate_re2* allocgate_re2_new(const char* pattern, size_t size, const char** error) {
  RE2::Options options;
  options.set_log_errors(false);
  auto* re = new allocgate_re2(re2::StringPiece(pattern, size), options);
  if (re->re.ok()) return re;
  *error = error_text(re->re.error_code());
  delete re;
  return nullptr;
}

int allocgate_re2_partial_match(const allocgate_re2* re, const char* text, size_t size) {
  return RE2::PartialMatch(re2::StringPiece(text, size), re->re) ? 1 : 0;
}

void allocgate_re2_delete(allocgate_re2* re) { delete re; }
}
