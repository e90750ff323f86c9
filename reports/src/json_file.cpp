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

nlohmann::json parse_json(std::string_view text, const std::string& source) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(source + ": malformed JSON at byte " + std::to_string(e.byte));
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
