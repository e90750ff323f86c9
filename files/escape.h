// SPDX-License-Identifier: Apache-2.0
// Text from a report (case names, site functions and files, error messages)
// is untrusted: a name with a newline and "::add-mask::" would become a
// workflow command in a CI log, an escape sequence would drive the terminal,
// a "|" would break a markdown table. Each medium allocgate prints to has one
// function here, and every such text goes through the one for its medium.
#pragma once

#include <string>
#include <string_view>

namespace allocgate::files {

/// Whether text is well-formed UTF-8 (RFC 3629), which JSON text must be.
bool valid_utf8(std::string_view text);

/// The length of the well-formed UTF-8 sequence that starts at text[i], or
/// 0 when the bytes there are not one (a stray byte, an overlong form, a
/// surrogate, a sequence cut by the end of text).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

/// U+FFFD, the replacement character, in UTF-8: what stands for a byte
/// that is not part of a well-formed sequence.
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

/// text with each byte that is not part of a well-formed UTF-8 sequence
/// replaced by U+FFFD, as nlohmann's dump() with error_handler_t::replace
/// writes it: a JSON file with a Latin-1 name in it is still read.
std::string utf8_replaced(std::string_view text);

/// For a terminal or a log: printable text and valid UTF-8 as they are;
/// control characters, invalid UTF-8, Unicode's bidirectional overrides and
/// the backslash itself escaped as C does ("\n", "\x1b", "\u202e", "\\").
/// The result is one line and cannot move the cursor or change colours; it
/// cannot start a GitHub Actions workflow command either, wherever in a line
/// it is printed: "::" after its leading spaces and "##[" anywhere become
/// "\x3a:" and "##\x5b".
std::string terminal_text(std::string_view text);

/// For running markdown text (a table cell, a list item, a heading): as
/// terminal_text, then the characters markdown would read as markup
/// backslash-escaped ("\|", "\*", "\[", "\<"...; an underscore only where it
/// could start emphasis, so "log_report" stays as it is).
std::string markdown_text(std::string_view text);

/// A markdown code span holding text: `text`, with a longer fence when the
/// text holds backticks, and "|" escaped so a table cell stays one cell.
std::string markdown_code(std::string_view text);

/// For HTML text and attribute values: as terminal_text (so a bidirectional
/// override or isolate, U+202E or U+2066, shows as "\u202e" instead of
/// reordering the page around it) but for the backslash, shown as it is,
/// then & < > " ' as entities.
std::string html_text(std::string_view text);

/// The longest start of text that is at most max_bytes long and does not end
/// inside a UTF-8 sequence: a label cut for length, never a broken character.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes);

/// For the message of a GitHub Actions workflow command (after "::"): as
/// terminal_text, with % CR LF percent-encoded as the runner expects.
std::string workflow_data(std::string_view text);

/// For a property of a workflow command (file=..., title=...): as
/// workflow_data, and ":" "," too, so a value cannot end the property list.
std::string workflow_property(std::string_view text);

}  // namespace allocgate::files
