// SPDX-License-Identifier: Apache-2.0
#include "bounds_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include <simdjson.h>

#include "input_error.h"
#include "json_file.h"

namespace allocgate::bounds {

namespace {

// The bounds file's own keys.
constexpr const char* kAllocsPerOp = "allocs_per_op";
constexpr const char* kBytesPerOp = "bytes_per_op";
constexpr const char* kPeakBytes = "peak_bytes";
constexpr const char* kLeakedBytesPerOp = "leaked_bytes_per_op";

// Where a bound is, for messages: built only when one is needed, not for each
// of a hundred thousand bounds read.
struct BoundPlace {
  const std::string& source;
  const std::string& toolchain;
  const std::string& name;
  std::string str(const char* field = nullptr) const {
    std::string text = source + ": " + toolchain + " " + name;
    if (field != nullptr) text.append(".").append(field);
    return text;
  }
};

double non_negative(simdjson::dom::element value, const BoundPlace& place, const char* field) {
  double v = 0;
  if (!value.is_number() || value.get(v) != simdjson::SUCCESS)
    throw files::InputError(place.str(field) + " is not a number");
  if (!std::isfinite(v) || v < 0) {
    throw files::InputError(place.str(field) + " must be a finite number >= 0, not " + files::json_text(value));
  }
  return v;
}

Bound read_bound(simdjson::dom::element value, const BoundPlace& place) {
  simdjson::dom::object entry;
  if (value.get(entry) != simdjson::SUCCESS) throw files::InputError(place.str() + " is not an object");
  Bound b;
  bool has_allocs = false;
  for (const auto [key, field] : entry) {
    if (key == kAllocsPerOp) {
      b.allocs_per_op = non_negative(field, place, kAllocsPerOp);
      has_allocs = true;
    } else if (key == "tolerance") {
      b.tolerance = non_negative(field, place, "tolerance");
    } else if (key == kBytesPerOp) {
      b.bytes_per_op = non_negative(field, place, kBytesPerOp);
    } else if (key == "bytes_tolerance") {
      b.bytes_tolerance = non_negative(field, place, "bytes_tolerance");
    } else if (key == kPeakBytes) {
      b.peak_bytes = non_negative(field, place, kPeakBytes);
    } else if (key == kLeakedBytesPerOp) {
      b.leaked_bytes_per_op = non_negative(field, place, kLeakedBytesPerOp);
    } else if (key == "note") {
      std::string_view note;
      if (field.get(note) != simdjson::SUCCESS) throw files::InputError(place.str("note") + " is not a string");
      b.note = note;
    } else {
      // A misspelt "tolerence" silently ignored would make the gate lie.
      throw files::InputError(place.str() + " has an unknown field '" + std::string(key) + "'");
    }
  }
  if (!has_allocs) throw files::InputError(place.str() + " has no allocs_per_op");
  return b;
}

Limit read_limit(simdjson::dom::element value, const std::string& source, std::size_t index) {
  const std::string name = "[" + std::to_string(index) + "]";
  const std::string toolchain = "limits";
  const BoundPlace place{source, toolchain, name};
  simdjson::dom::object entry;
  if (value.get(entry) != simdjson::SUCCESS) throw files::InputError(place.str() + " is not an object");
  Limit limit;
  bool bounds_something = false;
  for (const auto [key, field] : entry) {
    std::optional<double>* figure = key == kAllocsPerOp        ? &limit.allocs_per_op
                                    : key == kBytesPerOp       ? &limit.bytes_per_op
                                    : key == kPeakBytes        ? &limit.peak_bytes
                                    : key == kLeakedBytesPerOp ? &limit.leaked_bytes_per_op
                                                               : nullptr;
    if (figure != nullptr) {
      *figure = non_negative(field, place, std::string(key).c_str());
      bounds_something = true;
    } else if (key == "cases" || key == "note") {
      std::string_view text;
      if (field.get(text) != simdjson::SUCCESS) {
        throw files::InputError(place.str(std::string(key).c_str()) + " is not a string");
      }
      (key == "cases" ? limit.cases : limit.note) = text;
    } else {
      throw files::InputError(place.str() + " has an unknown field '" + std::string(key) + "'");
    }
  }
  if (!bounds_something) {
    throw files::InputError(place.str() + " limits nothing: give it allocs_per_op, bytes_per_op, peak_bytes or " +
                            kLeakedBytesPerOp);
  }
  return limit;
}

BoundsFile read_bounds_json(simdjson::dom::element root, const std::string& source) {
  simdjson::dom::object json;
  if (root.get(json) != simdjson::SUCCESS) {
    throw files::InputError(source + ": not a bounds file (the top level is not an object)");
  }
  simdjson::dom::element version;
  if (json.at_key("allocgate_bounds_version").get(version) != simdjson::SUCCESS) {
    throw files::InputError(source + ": not a bounds file (no allocgate_bounds_version)");
  }
  // Compared as JSON integers: reading it as an int would take 4294967297 for 1.
  std::int64_t number = 0;
  if (!version.is_int64() || version.get(number) != simdjson::SUCCESS || number != kBoundsSchemaVersion) {
    throw files::InputError(source + ": bounds version " + files::json_text(version) +
                            " is not supported (this allocgate reads " + std::to_string(kBoundsSchemaVersion) + ")");
  }
  simdjson::dom::object toolchains;
  if (json.at_key("toolchains").get(toolchains) != simdjson::SUCCESS) {
    throw files::InputError(source + ": toolchains is missing or not an object");
  }
  BoundsFile bounds;
  for (const auto [toolchain_key, section_value] : toolchains) {
    const std::string toolchain(toolchain_key);
    simdjson::dom::object cases;
    if (section_value.get(cases) != simdjson::SUCCESS) {
      throw files::InputError(source + ": toolchains." + toolchain + " is not an object");
    }
    ToolchainBounds& section = bounds.toolchains[toolchain];
    for (const auto [name_key, entry] : cases) {
      // The file is written sorted, as the map is: each goes at the end.
      const std::string name(name_key);
      section.emplace_hint(section.end(), name, read_bound(entry, BoundPlace{source, toolchain, name}));
    }
  }
  if (simdjson::dom::element limits; json.at_key("limits").get(limits) == simdjson::SUCCESS) {
    simdjson::dom::array list;
    if (limits.get(list) != simdjson::SUCCESS) throw files::InputError(source + ": limits is not an array");
    for (const simdjson::dom::element limit : list)
      bounds.limits.push_back(read_limit(limit, source, bounds.limits.size()));
  }
  return bounds;
}

}  // namespace

BoundsFile bounds_from_json(const nlohmann::json& json, const std::string& source) {
  return read_bounds_json(files::parse_document(json.dump(), source).root(), source);
}

BoundsFile read_bounds(const std::filesystem::path& file) {
  return read_bounds_json(files::read_json_document(file).root(), file.string());
}

namespace {

// An exclusive flock on the directory of the file the bounds are written to
// (a symlink's target), held while it lives. The bounds file itself is
// replaced by rename, so its inode cannot carry the lock, and a lock file
// beside it would be left in the user's tree.
class DirectoryLock {
 public:
  explicit DirectoryLock(const std::filesystem::path& bounds) {
    const std::filesystem::path target = files::replaced_file(bounds);
    const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0)
      throw files::InputError(bounds.string() + ": cannot open its directory to lock it: " + std::strerror(errno));
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) {
        const std::string reason = std::strerror(errno);
        ::close(fd_);
        throw files::InputError(bounds.string() + ": cannot lock its directory: " + reason);
      }
    }
  }
  ~DirectoryLock() { ::close(fd_); }  // closing releases the lock
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace

void update_bounds_file(const std::filesystem::path& file, const std::function<void(BoundsFile&)>& change) {
  const DirectoryLock lock(file);
  // An updater killed mid-rename; none can run now. Only a whole bounds file
  // in allocgate's temporary's name is one.
  files::remove_stale_temporaries(file, [](const std::filesystem::path& temporary) {
    try {
      read_bounds(temporary);
      return true;
    } catch (const files::InputError&) {
      return false;
    }
  });
  std::error_code error;
  const bool exists = std::filesystem::exists(file, error);
  if (error) throw files::InputError(file.string() + ": cannot reach: " + error.message());
  BoundsFile bounds = exists ? read_bounds(file) : BoundsFile{};
  change(bounds);
  files::write_file_atomically(file, to_json(bounds).dump(2) + "\n");
}

nlohmann::json to_json(const BoundsFile& bounds) {
  nlohmann::json toolchains = nlohmann::json::object();
  for (const auto& [toolchain, cases] : bounds.toolchains) {
    nlohmann::json section = nlohmann::json::object();
    for (const auto& [name, b] : cases) {
      nlohmann::json entry{{kAllocsPerOp, files::json_number(b.allocs_per_op)}};
      if (b.tolerance > 0) entry["tolerance"] = files::json_number(b.tolerance);
      if (b.bytes_per_op) entry[kBytesPerOp] = files::json_number(*b.bytes_per_op);
      if (b.bytes_tolerance > 0) entry["bytes_tolerance"] = files::json_number(b.bytes_tolerance);
      if (b.peak_bytes) entry[kPeakBytes] = files::json_number(*b.peak_bytes);
      if (b.leaked_bytes_per_op) entry[kLeakedBytesPerOp] = files::json_number(*b.leaked_bytes_per_op);
      if (!b.note.empty()) entry["note"] = b.note;
      section[name] = std::move(entry);
    }
    toolchains[toolchain] = std::move(section);
  }
  nlohmann::json json{{"allocgate_bounds_version", kBoundsSchemaVersion}, {"toolchains", toolchains}};
  for (const Limit& limit : bounds.limits) {
    nlohmann::json entry = nlohmann::json::object();
    if (!limit.cases.empty()) entry["cases"] = limit.cases;
    if (limit.allocs_per_op) entry[kAllocsPerOp] = files::json_number(*limit.allocs_per_op);
    if (limit.bytes_per_op) entry[kBytesPerOp] = files::json_number(*limit.bytes_per_op);
    if (limit.peak_bytes) entry[kPeakBytes] = files::json_number(*limit.peak_bytes);
    if (limit.leaked_bytes_per_op) entry[kLeakedBytesPerOp] = files::json_number(*limit.leaked_bytes_per_op);
    if (!limit.note.empty()) entry["note"] = limit.note;
    json["limits"].push_back(std::move(entry));
  }
  return json;
}

}  // namespace allocgate::bounds
