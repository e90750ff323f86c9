// SPDX-License-Identifier: Apache-2.0
#include "merge.h"

#include <algorithm>
#include <map>
#include <optional>

#include "input_error.h"
#include "json_file.h"
#include "json_keys.h"
#include "shard.h"

namespace allocgate::reports {

namespace k = allocgate::reports::keys;

namespace {

// The report's shard, if it is one; "1/1" is the whole run.
std::optional<Shard> shard_of(const NamedReport& r) {
  const auto it = r.report.context.find(k::kShard);
  if (it == r.report.context.end()) return std::nullopt;
  if (!it->is_string()) throw files::InputError(r.source + ": context." + k::kShard + " is not a string");
  return parse_shard(it->get<std::string>(), r.source + ": context." + k::kShard);
}

// Shards in order, each of 1..N once; reports without one stay as given.
// Returns whether they are shards.
bool order_shards(std::vector<NamedReport>& reports) {
  std::vector<std::optional<Shard>> shards;
  for (const NamedReport& r : reports) shards.push_back(shard_of(r));
  const auto sharded = std::count_if(shards.begin(), shards.end(), [](const auto& s) { return s.has_value(); });
  if (sharded == 0) return false;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    if (!shards[i])
      throw files::InputError(reports[i].source + " is not a shard, but " + reports[0].source + " is one");
  }
  const int count = shards[0]->count;
  // By index, as given: nothing the size of N is made, and N, read from a
  // file, may be 2147483647.
  std::map<int, const std::string*> seen;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    if (shards[i]->count != count) {
      throw files::InputError(reports[i].source + " is shard " + shards[i]->text() + ", but " + reports[0].source +
                              " is one of " + std::to_string(count));
    }
    const auto [it, added] = seen.try_emplace(shards[i]->index, &reports[i].source);
    if (!added)
      throw files::InputError(reports[i].source + " and " + *it->second + " are both shard " + shards[i]->text());
  }
  // Each index once, all at most N: whole exactly when they are 1..M with M = N.
  int expected = 1;
  for (const auto& [index, source] : seen) {
    if (index != expected) break;
    ++expected;
  }
  if (expected <= count) {
    throw files::InputError("shard " + Shard{expected, count}.text() +
                            " is missing: the merged report would not be whole");
  }
  std::vector<NamedReport> ordered(reports.size());
  for (std::size_t i = 0; i < reports.size(); ++i) {
    ordered[static_cast<std::size_t>(shards[i]->index - 1)] = std::move(reports[i]);
  }
  reports = std::move(ordered);
  return true;
}

}  // namespace

std::string program_case_name(const NamedReport& report, std::string_view name) {
  const std::string executable = report.report.context_text(k::kExecutable);
  const std::string program = executable.substr(executable.find_last_of('/') + 1);
  if (program.empty()) {
    throw files::InputError(report.source +
                            ": its context names no executable, so its cases cannot be named by their program");
  }
  return program + "/" + std::string(name);
}

Report merge_reports(std::vector<NamedReport> reports, std::vector<std::string>* joined_order, bool by_program) {
  if (reports.empty()) throw files::InputError("merge: no reports to merge");
  for (const NamedReport& r : reports) {
    if (!r.report.context.contains(k::kSchemaVersion) && r.report.toolchain().empty()) {
      throw files::InputError(r.source +
                              ": its context has no allocgate_toolchain (merge joins the reports of allocgate run "
                              "and of tests and benchmarks counted by allocgate)");
    }
  }
  const bool shards = order_shards(reports);
  if (joined_order != nullptr) {
    joined_order->clear();
    for (const NamedReport& r : reports) joined_order->push_back(r.source);
  }
  const std::string toolchain = reports[0].report.toolchain();
  for (const NamedReport& r : reports) {
    if (r.report.toolchain() != toolchain) {
      throw files::InputError(r.source + " was run with toolchain " + r.report.toolchain() + ", " + reports[0].source +
                              " with " + toolchain + ": their counts cannot be gated together");
    }
  }
  // The shards of one run come from one build of one commit.
  for (const char* key : {k::kGitCommit, k::kExecutable}) {
    const std::string first = reports[0].report.context_text(key);
    for (const NamedReport& r : reports) {
      if (!shards || r.report.context_text(key) == first) continue;
      const auto shown = [](const std::string& text) { return text.empty() ? std::string("(none)") : text; };
      throw files::InputError(r.source + " has " + key + " " + shown(r.report.context_text(key)) + ", " +
                              reports[0].source + " " + shown(first) +
                              ": shards of one run share their commit and executable");
    }
  }

  Report merged;
  merged.context = reports[0].report.context;
  merged.context.erase(k::kShard);
  // A case in two reports is found once all are in, by name order: a table
  // of names would take more than the cases do.
  std::vector<std::uint32_t> source_of;  // per merged case, the report it came from
  for (std::size_t r = 0; r < reports.size(); ++r) {
    for (CaseResult c : reports[r].report.cases) {
      if (by_program) c.name = program_case_name(reports[r], c.name);
      merged.cases.push_back(c);
      source_of.push_back(static_cast<std::uint32_t>(r));
    }
    reports[r].report.cases = CaseList();
  }
  const std::vector<std::uint32_t> order = merged.cases.by_name();
  const auto twice = std::adjacent_find(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return merged.cases.name(a) == merged.cases.name(b);
  });
  if (twice != order.end()) {
    const NamedReport& first = reports[source_of[*twice]];
    const NamedReport& second = reports[source_of[*(twice + 1)]];
    const std::string program = first.report.context_text(k::kExecutable);
    // Two programs' tests of one name (one test file built twice): each
    // case can be told by its program instead.
    const bool programs_differ =
        !by_program && !program.empty() && second.report.context_text(k::kExecutable) != program;
    throw files::InputError(
        "case " + std::string(merged.cases.name(*twice)) + " is in both " + first.source + " and " + second.source +
        (programs_differ ? ", reports of two programs: --by-program names each case by its program" : ""));
  }
  return merged;
}

bool all_in_benchmark_layout(const std::vector<NamedReport>& reports) {
  return std::none_of(reports.begin(), reports.end(),
                      [](const NamedReport& r) { return r.report.context.contains(k::kSchemaVersion); });
}

nlohmann::json join_benchmark_layout(const std::vector<std::string>& files, bool by_program) {
  nlohmann::json joined;
  nlohmann::json entries = nlohmann::json::array();
  for (const std::string& file : files) {
    nlohmann::json report = files::read_json_file(file);
    if (joined.is_null()) {
      joined["context"] = report.value("context", nlohmann::json::object());
      joined["context"].erase(k::kShard);
    }
    NamedReport named{file, {}};
    if (by_program) named.report.context = report.value("context", nlohmann::json::object());
    for (nlohmann::json& entry : report.at("benchmarks")) {
      if (by_program) {
        for (const char* key : {"name", "run_name"}) {
          if (entry.contains(key) && entry[key].is_string())
            entry[key] = program_case_name(named, entry[key].get<std::string>());
        }
      }
      entries.push_back(std::move(entry));
    }
  }
  joined["benchmarks"] = std::move(entries);
  return joined;
}

}  // namespace allocgate::reports
