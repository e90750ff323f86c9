// SPDX-License-Identifier: Apache-2.0
#include "bounds_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <ostream>
#include <set>

#include "input_error.h"
#include "json_file.h"
#include "json_stream.h"
#include "streamed_json.h"

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

using Json = nlohmann::json;

double non_negative(const Json& value, const BoundPlace& place, const char* field) {
  if (!value.is_number()) throw files::InputError(place.str(field) + " is not a number");
  const double v = value.get<double>();
  if (!std::isfinite(v) || v < 0) {
    throw files::InputError(place.str(field) + " must be a finite number >= 0, not " + value.dump());
  }
  return v;
}

// The outcomes a recorded finding may name: the sweep's bad ones.
constexpr const char* kFindingOutcomes[] = {"swallowed", "leaked", "terminated", "crashed", "hung"};

std::vector<KnownFinding> read_sweep(const Json& list, const BoundPlace& place) {
  constexpr std::size_t kMaxFindings = 100000;
  if (!list.is_array() || list.size() > kMaxFindings) {
    throw files::InputError(place.str("sweep") + " is not an array of at most " + std::to_string(kMaxFindings) +
                            " findings");
  }
  std::vector<KnownFinding> findings;
  for (const Json& entry : list) {
    if (!entry.is_object()) throw files::InputError(place.str("sweep") + " holds a finding that is not an object");
    KnownFinding f;
    for (const auto& [key, field] : entry.items()) {
      if (key == "on_purpose") {
        if (!field.is_boolean()) throw files::InputError(place.str("sweep") + ": on_purpose is not true or false");
        f.on_purpose = field.get<bool>();
      } else if (key == "outcome" || key == "line" || key == "note") {
        if (!field.is_string()) throw files::InputError(place.str("sweep") + ": " + key + " is not a string");
        (key == "outcome" ? f.outcome : key == "line" ? f.line : f.note) = field.get<std::string>();
      } else {
        throw files::InputError(place.str("sweep") + " holds a finding with an unknown field '" + key + "'");
      }
    }
    bool known = false;
    for (const char* outcome : kFindingOutcomes) known = known || f.outcome == outcome;
    if (!known) {
      throw files::InputError(place.str("sweep") + " holds a finding whose outcome " + Json(f.outcome).dump() +
                              " is not swallowed, leaked, terminated, crashed or hung");
    }
    findings.push_back(std::move(f));
  }
  return findings;
}

Bound read_bound(const Json& entry, const BoundPlace& place) {
  if (!entry.is_object()) throw files::InputError(place.str() + " is not an object");
  Bound b;
  bool has_allocs = false;
  for (const auto& [key, field] : entry.items()) {
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
      if (!field.is_string()) throw files::InputError(place.str("note") + " is not a string");
      b.note = field.get<std::string>();
    } else if (key == "sweep") {
      b.sweep = read_sweep(field, place);
    } else {
      // A misspelt "tolerence" silently ignored would make the gate lie.
      throw files::InputError(place.str() + " has an unknown field '" + key + "'");
    }
  }
  if (!has_allocs) throw files::InputError(place.str() + " has no allocs_per_op");
  return b;
}

Limit read_limit(const Json& entry, const std::string& source, std::size_t index) {
  std::string name = "[";  // appended: GCC 12 warns falsely (-Wrestrict) on "[" + string
  name += std::to_string(index);
  name += ']';
  const std::string toolchain = "limits";
  const BoundPlace place{source, toolchain, name};
  if (!entry.is_object()) throw files::InputError(place.str() + " is not an object");
  Limit limit;
  bool bounds_something = false;
  for (const auto& [key, field] : entry.items()) {
    std::optional<double>* figure = key == kAllocsPerOp        ? &limit.allocs_per_op
                                    : key == kBytesPerOp       ? &limit.bytes_per_op
                                    : key == kPeakBytes        ? &limit.peak_bytes
                                    : key == kLeakedBytesPerOp ? &limit.leaked_bytes_per_op
                                                               : nullptr;
    if (figure != nullptr) {
      *figure = non_negative(field, place, key.c_str());
      bounds_something = true;
    } else if (key == "cases" || key == "note") {
      if (!field.is_string()) throw files::InputError(place.str(key.c_str()) + " is not a string");
      (key == "cases" ? limit.cases : limit.note) = field.get<std::string>();
    } else {
      throw files::InputError(place.str() + " has an unknown field '" + key + "'");
    }
  }
  if (!bounds_something) {
    throw files::InputError(place.str() + " limits nothing: give it allocs_per_op, bytes_per_op, peak_bytes or " +
                            kLeakedBytesPerOp);
  }
  return limit;
}

// The file's events: its top level, toolchains and each toolchain's section
// streamed, a bound built at a time, so that a file of 1,000,000 bounds is
// never held as parsed JSON beside the bounds read from it.
class BoundsStream final : public files::JsonStreamHandler {
 public:
  explicit BoundsStream(const std::string& source) : source_(source) {}

  bool stream(const files::JsonPath& path, bool is_array) override {
    if (path.empty()) {
      if (is_array) throw files::InputError(source_ + ": not a bounds file (the top level is not an object)");
      return true;
    }
    const std::string& key = path[0].key;
    if (path.size() == 1) {
      if (key == "toolchains" && is_array) return false;  // refused in value()
      if (key == "allocgate_bounds_version" || key == "limits") return false;
      top_level_key(key);
      return true;
    }
    if (key != "toolchains") return true;  // another key's value: read through, kept nowhere
    if (path.size() == 2) {
      if (is_array) return false;  // refused in value()
      const auto [section, added] = bounds_.toolchains.try_emplace(path[1].key);
      if (!added) twice(path[1].key);
      section_ = &section->second;
      return true;
    }
    return false;  // a bound: built
  }

  void value(const files::JsonPath& path, Json value) override {
    if (path.empty()) throw files::InputError(source_ + ": not a bounds file (the top level is not an object)");
    const std::string& key = path[0].key;
    if (path.size() == 1) top_level_key(key);
    if (key == "allocgate_bounds_version") {
      // Compared as JSON integers: reading it as an int would take 4294967297 for 1.
      if (!value.is_number_integer() || value != kBoundsSchemaVersion) {
        throw files::InputError(source_ + ": bounds version " + value.dump() +
                                " is not supported (this allocgate reads " + std::to_string(kBoundsSchemaVersion) +
                                ")");
      }
    } else if (key == "limits") {
      if (!value.is_array()) throw files::InputError(source_ + ": limits is not an array");
      for (const Json& limit : value) bounds_.limits.push_back(read_limit(limit, source_, bounds_.limits.size()));
    } else if (key == "toolchains") {
      if (path.size() == 1) throw files::InputError(source_ + ": toolchains is missing or not an object");
      const std::string& toolchain = path[1].key;
      if (path.size() == 2) throw files::InputError(source_ + ": toolchains." + toolchain + " is not an object");
      const std::string& name = path[2].key;
      // The file is written sorted: a name twice is then the one before it
      // (sort() finds the others once the file is read).
      if (section_->sorted() && !section_->empty() && section_->name(section_->size() - 1) == name) twice(name);
      section_->add(name, read_bound(value, BoundPlace{source_, toolchain, name}));
    }
  }

  BoundsFile finish() {
    if (!keys_.count("allocgate_bounds_version")) {
      throw files::InputError(source_ + ": not a bounds file (no allocgate_bounds_version)");
    }
    if (!keys_.count("toolchains")) throw files::InputError(source_ + ": toolchains is missing or not an object");
    for (auto& [toolchain, section] : bounds_.toolchains) {
      if (const auto name = section.sort()) twice(*name);
    }
    return std::move(bounds_);
  }

 private:
  void top_level_key(const std::string& key) {
    if (!keys_.insert(key).second) twice(key);
  }
  [[noreturn]] void twice(const std::string& key) const {
    throw files::InputError(source_ + ": the key \"" + key + "\" appears twice in one object");
  }

  const std::string& source_;
  std::set<std::string> keys_;  // the top level's
  BoundsFile bounds_;
  ToolchainBounds* section_ = nullptr;
};

}  // namespace

BoundsFile bounds_from_json(const nlohmann::json& json, const std::string& source) {
  BoundsStream reader(source);
  files::stream_json_text(json.dump(), source, reader);
  return reader.finish();
}

BoundsFile read_bounds(const std::filesystem::path& file) {
  const std::string source = file.string();
  BoundsStream reader(source);
  files::stream_json_file(file, reader);
  return reader.finish();
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
  files::print_file_atomically(file, [&](std::ostream& out) { print_bounds(out, bounds); });
}

namespace {

nlohmann::json bound_json(const Bound& b) {
  nlohmann::json entry{{kAllocsPerOp, files::json_number(b.allocs_per_op)}};
  if (b.tolerance > 0) entry["tolerance"] = files::json_number(b.tolerance);
  if (b.bytes_per_op) entry[kBytesPerOp] = files::json_number(*b.bytes_per_op);
  if (b.bytes_tolerance > 0) entry["bytes_tolerance"] = files::json_number(b.bytes_tolerance);
  if (b.peak_bytes) entry[kPeakBytes] = files::json_number(*b.peak_bytes);
  if (b.leaked_bytes_per_op) entry[kLeakedBytesPerOp] = files::json_number(*b.leaked_bytes_per_op);
  if (!b.note.empty()) entry["note"] = b.note;
  if (b.sweep) {
    nlohmann::json findings = nlohmann::json::array();
    for (const KnownFinding& f : *b.sweep) {
      nlohmann::json finding{{"outcome", f.outcome}, {"line", f.line}};
      if (f.on_purpose) finding["on_purpose"] = true;
      if (!f.note.empty()) finding["note"] = f.note;
      findings.push_back(std::move(finding));
    }
    entry["sweep"] = std::move(findings);
  }
  return entry;
}

nlohmann::json limits_json(const std::vector<Limit>& limits) {
  nlohmann::json list = nlohmann::json::array();
  for (const Limit& limit : limits) {
    nlohmann::json entry = nlohmann::json::object();
    if (!limit.cases.empty()) entry["cases"] = limit.cases;
    if (limit.allocs_per_op) entry[kAllocsPerOp] = files::json_number(*limit.allocs_per_op);
    if (limit.bytes_per_op) entry[kBytesPerOp] = files::json_number(*limit.bytes_per_op);
    if (limit.peak_bytes) entry[kPeakBytes] = files::json_number(*limit.peak_bytes);
    if (limit.leaked_bytes_per_op) entry[kLeakedBytesPerOp] = files::json_number(*limit.leaked_bytes_per_op);
    if (!limit.note.empty()) entry["note"] = limit.note;
    list.push_back(std::move(entry));
  }
  return list;
}

}  // namespace

nlohmann::json to_json(const BoundsFile& bounds) {
  nlohmann::json toolchains = nlohmann::json::object();
  for (const auto& [toolchain, cases] : bounds.toolchains) {
    nlohmann::json section = nlohmann::json::object();
    for (const auto& [name, b] : cases) section[std::string(name)] = bound_json(b);
    toolchains[toolchain] = std::move(section);
  }
  nlohmann::json json{{"allocgate_bounds_version", kBoundsSchemaVersion}, {"toolchains", toolchains}};
  if (!bounds.limits.empty()) json["limits"] = limits_json(bounds.limits);
  return json;
}

// to_json(bounds).dump(2) and a newline, written a bound at a time: its keys
// in the order a JSON object dumped whole has them.
void print_bounds(std::ostream& out, const BoundsFile& bounds) {
  files::StreamedJson file(out, '{');
  file.member("allocgate_bounds_version", kBoundsSchemaVersion);
  if (!bounds.limits.empty()) file.member("limits", limits_json(bounds.limits));
  file.key("toolchains");
  files::StreamedJson toolchains(out, '{', file.nested_indent());
  for (const auto& [toolchain, cases] : bounds.toolchains) {
    toolchains.key(toolchain);
    files::StreamedJson section(out, '{', toolchains.nested_indent());
    for (const auto& [name, b] : cases) section.member(name, bound_json(b));
    section.finish();
  }
  toolchains.finish();
  file.finish();
  out << '\n';
}

}  // namespace allocgate::bounds
