// SPDX-License-Identifier: Apache-2.0
#include "escape.h"

#include <algorithm>
#include <cstdint>

namespace allocgate::files {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// The length of the well-formed UTF-8 sequence at text[i] and its code point,
// or 0 when the bytes there are not one (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF).
std::size_t utf8_sequence(std::string_view text, std::size_t i, std::uint32_t& code_point) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  std::uint32_t min = 0;
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, min = 0x80, code_point = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, min = 0x800, code_point = lead & 0x0Fu;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, min = 0x10000, code_point = lead & 0x07u;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return 0;
    code_point = code_point << 6 | (byte(k) & 0x3Fu);
  }
  if (code_point < min || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF)) return 0;
  return length;
}

// C1 controls, the characters that reorder how a line displays (the
// "Trojan Source" ones), and U+FFFE and U+FFFF, which XML 1.0 does not allow
// in a document (a JUnit report would not parse): shown as \uXXXX, never
// acted on.
bool hidden_code_point(std::uint32_t c) {
  return (c >= 0x80 && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x200E ||
         c == 0x200F || c == 0x061C || c == 0xFFFE || c == 0xFFFF || c == 0x2028 ||
         c == 0x2029;  // line and paragraph separators: a line end to JavaScript's ^...$m
}

void append_hex_byte(std::string& out, unsigned char b) {
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 0xF];
}

void append_code_point(std::string& out, std::uint32_t c) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(c >> shift) & 0xF];
}

bool alphanumeric(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Percent-encodes the characters of `encoded` the way the Actions runner
// decodes them.
std::string percent_encode(std::string_view text, std::string_view encoded) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (encoded.find(c) == std::string_view::npos) {
      out += c;
      continue;
    }
    constexpr char kUpperHex[] = "0123456789ABCDEF";
    out += '%';
    out += kUpperHex[static_cast<unsigned char>(c) >> 4];
    out += kUpperHex[static_cast<unsigned char>(c) & 0xF];
  }
  return out;
}

}  // namespace

std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  std::uint32_t code_point = 0;
  return utf8_sequence(text, i, code_point);
}

std::string utf8_replaced(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += kReplacementCharacter;
      ++i;
    } else {
      out.append(text, i, length);
      i += length;
    }
  }
  return out;
}

bool valid_utf8(std::string_view text) {
  std::uint32_t code_point = 0;
  for (std::size_t i = 0, length = 0; i < text.size(); i += length) {
    length = utf8_sequence(text, i, code_point);
    if (length == 0) return false;
  }
  return true;
}

namespace {

// terminal_text's rule; a page shows its escapes in a text that cannot be
// one line's end or a command, and leaves the backslash as it is.
std::string visible_text(std::string_view text, bool escape_backslash) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    // The Actions runner reads a line whose first non-blank characters are
    // "::" as a command, and "##[" anywhere in a line as one of its older
    // form. A text may be printed at the start of a line (a table's first
    // cell) or inside one, so neither can appear in what it prints.
    if (c == ':' && i + 1 < text.size() && text[i + 1] == ':' && out.find_first_not_of(' ') == std::string::npos) {
      append_hex_byte(out, ':');
      ++i;
      continue;
    }
    if (c == '[' && out.size() >= 2 && out.compare(out.size() - 2, 2, "##") == 0) {
      append_hex_byte(out, '[');
      ++i;
      continue;
    }
    std::uint32_t code_point = 0;
    const std::size_t length = utf8_sequence(text, i, code_point);
    if (length == 0) {
      append_hex_byte(out, static_cast<unsigned char>(c));
      ++i;
      continue;
    }
    if (length > 1) {
      if (hidden_code_point(code_point)) {
        append_code_point(out, code_point);
      } else {
        out.append(text, i, length);
      }
      i += length;
      continue;
    }
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\\':
        out += escape_backslash ? "\\\\" : "\\";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
          append_hex_byte(out, static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
    ++i;
  }
  return out;
}

}  // namespace

std::string terminal_text(std::string_view text) { return visible_text(text, true); }

std::string markdown_text(std::string_view text) {
  const std::string plain = terminal_text(text);
  std::string out;
  out.reserve(plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    const char c = plain[i];
    bool escape = false;
    switch (c) {
      case '\\':
      case '`':
      case '*':
      case '[':
      case ']':
      case '<':
      case '|':
      case '~':
      case '&':
      case '#':
        escape = true;
        break;
      case '_':
        // Between two letters or digits an underscore cannot open or close
        // emphasis (CommonMark's flanking rules), so names stay readable.
        escape = i == 0 || i + 1 == plain.size() || !alphanumeric(plain[i - 1]) || !alphanumeric(plain[i + 1]);
        break;
      default:
        break;
    }
    if (escape) out += '\\';
    out += c;
  }
  return out;
}

std::string markdown_code(std::string_view text) {
  std::string content = terminal_text(text);
  // In a GFM table "|" ends the cell even inside a code span; "\|" does not.
  std::string escaped;
  escaped.reserve(content.size());
  std::size_t run = 0, longest_run = 0;
  for (const char c : content) {
    if (c == '|') escaped += '\\';
    escaped += c;
    run = c == '`' ? run + 1 : 0;
    longest_run = std::max(longest_run, run);
  }
  const std::string fence(longest_run + 1, '`');
  // A span that starts or ends with a backtick needs a space inside its fence.
  const bool pad = !escaped.empty() && (escaped.front() == '`' || escaped.back() == '`');
  return fence + (pad ? " " : "") + escaped + (pad ? " " : "") + fence;
}

std::string html_text(std::string_view text) {
  const std::string plain = visible_text(text, false);
  std::string out;
  out.reserve(plain.size());
  for (const char c : plain) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t end = max_bytes;
  // Back to the first byte of the sequence the cut falls in (10xxxxxx bytes
  // continue one), and before it: that sequence does not fit.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

std::string workflow_data(std::string_view text) { return percent_encode(terminal_text(text), "%\r\n"); }

std::string workflow_property(std::string_view text) { return percent_encode(terminal_text(text), "%\r\n:,"); }

}  // namespace allocgate::files
