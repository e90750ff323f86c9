// SPDX-License-Identifier: Apache-2.0
#include "sweep_gate.h"

#include <charconv>
#include <map>
#include <string_view>
#include <utility>

namespace allocgate::reports {

namespace {

using Key = std::pair<std::string_view, std::string_view>;  // outcome, place

Key key_of(const std::string& outcome, const std::string& line) { return {outcome, bounds::finding_place(line)}; }

bool counted(const SweepFindingResult& f) { return f.outcome != "not reached"; }

}  // namespace

std::vector<const SweepFindingResult*> new_findings(const KnownFindings& known, const SweepSummary& sweep) {
  std::vector<const SweepFindingResult*> found;
  if (sweep.nondeterministic) return found;
  std::map<Key, std::size_t> recorded;  // how many of each a bound knows
  std::map<Key, bool> on_purpose;
  if (known) {
    for (const bounds::KnownFinding& f : *known) {
      const Key key = key_of(f.outcome, f.line);
      if (f.on_purpose) on_purpose[key] = true;
      ++recorded[key];
    }
  }
  for (const SweepFindingResult& f : sweep.findings) {
    if (!counted(f)) continue;
    const Key key = key_of(f.outcome, f.line);
    if (on_purpose.count(key)) continue;
    if (auto it = recorded.find(key); it != recorded.end() && it->second > 0) {
      --it->second;
      continue;
    }
    found.push_back(&f);
  }
  return found;
}

std::string new_findings_text(const std::vector<const SweepFindingResult*>& findings) {
  constexpr std::size_t kNamed = 3;
  std::string text = "failure sweep: ";
  for (std::size_t i = 0; i < findings.size() && i < kNamed; ++i) {
    const SweepFindingResult& f = *findings[i];
    if (i > 0) text += "; ";
    text += f.outcome + " at " + (f.line.empty() ? std::string("an unknown line") : f.line) + " with allocation " +
            std::to_string(f.point) + " failing";
    if (!f.detail.empty()) text += " (" + f.detail + ")";
  }
  if (findings.size() > kNamed) text += "; and " + std::to_string(findings.size() - kNamed) + " more";
  text += findings.size() == 1 ? ", a finding its bound does not record" : ", findings its bound does not record";
  return text;
}

std::vector<bounds::KnownFinding> recorded_findings(const KnownFindings& known, const SweepSummary& sweep) {
  std::vector<bounds::KnownFinding> recorded;
  std::map<Key, std::vector<const bounds::KnownFinding*>> notes;  // known findings by key, to keep their notes
  std::map<Key, bool> on_purpose;
  if (known) {
    for (const bounds::KnownFinding& f : *known) {
      const Key key = key_of(f.outcome, f.line);
      if (f.on_purpose) {
        on_purpose[key] = true;
        recorded.push_back(f);
      } else {
        notes[key].push_back(&f);
      }
    }
  }
  for (const SweepFindingResult& f : sweep.findings) {
    if (!counted(f)) continue;
    const Key key = key_of(f.outcome, f.line);
    if (on_purpose.count(key)) continue;
    bounds::KnownFinding entry{f.outcome, f.line, false, {}};
    if (auto it = notes.find(key); it != notes.end() && !it->second.empty()) {
      entry.note = it->second.front()->note;
      it->second.erase(it->second.begin());
    }
    recorded.push_back(std::move(entry));
  }
  return recorded;
}

std::optional<FileLine> file_line_of(const std::string& line) {
  const std::string_view place = bounds::finding_place(line);
  if (place.size() == line.size()) return std::nullopt;
  const std::size_t open = place.rfind(" (");
  FileLine at;
  at.file = std::string(place.substr(open + 2));
  const char* first = line.data() + place.size() + 1;
  const char* last = line.data() + line.size() - 1;
  if (at.file.empty() || std::from_chars(first, last, at.line).ptr != last) return std::nullopt;
  return at;
}

}  // namespace allocgate::reports
