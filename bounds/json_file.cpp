#include "json_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "input_error.h"

namespace allocgate::reports {

namespace {

// Google Benchmark writes a counter's coefficient of variation as NaN when its
// mean is 0 (every allocs/op aggregate of a zero-allocation benchmark), and
// JSON has no NaN. Outside strings, non-finite literals become null, which the
// report reader then refuses wherever it needs a figure.
std::string null_for_non_finite(std::string_view text) {
  static constexpr std::string_view kLiterals[] = {"-Infinity", "Infinity", "-nan", "-inf", "NaN", "nan", "inf"};
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    bool replaced = false;
    for (const std::string_view literal : kLiterals) {
      if (text.substr(i, literal.size()) == literal) {
        out += "null";
        i += literal.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

}  // namespace

nlohmann::json parse_json(std::string_view text, const std::string& source) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // Retry without the non-finite literals; report the first error if that
    // does not help either.
    try {
      const nlohmann::json retried = nlohmann::json::parse(null_for_non_finite(text), nullptr, false);
      if (!retried.is_discarded()) return retried;
    } catch (const nlohmann::json::exception&) {
    }
    throw InputError(source + ": malformed JSON at byte " + std::to_string(e.byte));
  } catch (const nlohmann::json::exception& e) {
    // Found by fuzzing: a number too large for a double (1e+99999) is an
    // out_of_range error, not a parse_error.
    throw InputError(source + ": malformed JSON: " + e.what());
  }
}

nlohmann::json json_number(double value) {
  if (std::trunc(value) == value && std::fabs(value) < 9.0e15) return static_cast<std::int64_t>(value);
  return value;
}

nlohmann::json read_json_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot read: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(file.string() + ": cannot read");
  return parse_json(text.str(), file.string());
}

void write_file_atomically(const std::filesystem::path& file, std::string_view text) {
  const std::filesystem::path dir = file.has_parent_path() ? file.parent_path() : ".";
  std::string name = ".";  // hidden, beside the target: rename stays on one file system
  name += file.filename().string();
  name += ".XXXXXX";
  std::string temp = (dir / name).string();
  const int fd = mkstemp(temp.data());
  if (fd < 0) throw InputError(file.string() + ": cannot write: " + std::strerror(errno));
  const auto fail = [&](const char* what) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    std::remove(temp.c_str());
    throw InputError(file.string() + ": " + what + ": " + reason);
  };
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write");
    }
    written += static_cast<std::size_t>(n);
  }
  // mkstemp makes the file private; give it the target's mode, or rw-r--r--.
  struct stat existing {};
  const mode_t mode = ::stat(file.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : 0644;
  if (::fchmod(fd, mode) != 0) fail("cannot set the mode of");
  if (::fsync(fd) != 0) fail("cannot sync");
  if (::close(fd) != 0) {
    std::remove(temp.c_str());
    throw InputError(file.string() + ": cannot write: " + std::strerror(errno));
  }
  if (std::rename(temp.c_str(), file.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temp.c_str());
    throw InputError(file.string() + ": cannot replace: " + reason);
  }
}

}  // namespace allocgate::reports
