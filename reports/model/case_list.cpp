// SPDX-License-Identifier: Apache-2.0
// A case's record: a varint of which fields it has, its name, then each field
// it has in CaseResult's order; strings as a varint length and their bytes,
// figures as the 8 bytes of their double, counts as varints.
#include "case_list.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace allocgate::reports {

namespace {

enum Field : std::uint32_t {
  kWorkload = 1u << 0,
  kVariant = 1u << 1,
  kSize = 1u << 2,
  kAllocsMin = 1u << 3,
  kBytes = 1u << 4,
  kPeak = 1u << 5,
  kLeaked = 1u << 6,
  kNsMedian = 1u << 7,
  kNsMin = 1u << 8,
  kNsMax = 1u << 9,
  kCpuNsMedian = 1u << 10,
  kIterations = 1u << 11,
  kSha256 = 1u << 12,
  kEqualKnown = 1u << 13,
  kEqual = 1u << 14,
  kTestFailed = 1u << 15,
  kExtra = 1u << 16,
  kKept = 1u << 17,
  kOneTime = 1u << 18,
  kOtherThreads = 1u << 19,
};

}  // namespace

CaseList::CaseList(std::initializer_list<CaseResult> cases) {
  for (const CaseResult& c : cases) push_back(c);
}

void CaseList::push_back(const CaseResult& c) {
  if (records_.size() >= std::numeric_limits<std::uint32_t>::max()) throw std::length_error("too many cases");
  records_.push_back(append(c));
}

void CaseList::set(std::size_t i, const CaseResult& c) { records_.at(i) = append(c); }

std::uint64_t CaseList::append(const CaseResult& c) {
  std::uint32_t fields = 0;
  const auto has = [&](bool present, Field field) {
    if (present) fields |= field;
  };
  has(!c.workload.empty(), kWorkload);
  has(!c.variant.empty(), kVariant);
  has(c.size != 0, kSize);
  has(c.allocs_per_op_min.has_value(), kAllocsMin);
  has(c.bytes_per_op.has_value(), kBytes);
  has(c.peak_bytes.has_value(), kPeak);
  has(c.leaked_bytes_per_op.has_value(), kLeaked);
  has(c.ns_median.has_value(), kNsMedian);
  has(c.ns_min.has_value(), kNsMin);
  has(c.ns_max.has_value(), kNsMax);
  has(c.cpu_ns_median.has_value(), kCpuNsMedian);
  has(c.iterations.has_value(), kIterations);
  has(!c.output_sha256.empty(), kSha256);
  has(c.equal_to_reference.has_value(), kEqualKnown);
  has(c.equal_to_reference.value_or(false), kEqual);
  has(c.test_failed, kTestFailed);
  has(c.kept_bytes.has_value(), kKept);
  has(c.one_time_allocs.has_value(), kOneTime);
  has(c.other_thread_allocs.has_value(), kOtherThreads);
  has(!c.ns_repetitions.empty() || !c.sites.empty() || !c.stacks.empty() || c.sweep.has_value(), kExtra);

  std::string record;
  files::RecordWriter w(record);
  w.varint(fields);
  w.text(c.name);
  if (fields & kWorkload) w.text(c.workload);
  if (fields & kVariant) w.text(c.variant);
  if (fields & kSize) w.varint(c.size);
  w.figure(c.allocs_per_op);
  for (const auto& [field, value] :
       {std::pair{kAllocsMin, c.allocs_per_op_min}, std::pair{kBytes, c.bytes_per_op}, std::pair{kPeak, c.peak_bytes},
        std::pair{kLeaked, c.leaked_bytes_per_op}, std::pair{kNsMedian, c.ns_median}, std::pair{kNsMin, c.ns_min},
        std::pair{kNsMax, c.ns_max}, std::pair{kCpuNsMedian, c.cpu_ns_median}, std::pair{kKept, c.kept_bytes},
        std::pair{kOneTime, c.one_time_allocs}, std::pair{kOtherThreads, c.other_thread_allocs}}) {
    if (fields & field) w.figure(*value);
  }
  if (fields & kIterations) w.varint(static_cast<std::uint64_t>(*c.iterations));
  if (fields & kSha256) w.text(c.output_sha256);
  if (fields & kExtra) {
    w.varint(extras_.size());
    extras_.push_back(Extra{c.ns_repetitions, c.sites, c.stacks, c.sweep});
  }

  return blocks_.append(record);
}

const char* CaseList::record(std::size_t i) const { return blocks_.at(records_.at(i)); }

std::string_view CaseList::name(std::size_t i) const {
  files::RecordReader r(record(i));
  r.varint();
  return r.text();
}

CaseResult CaseList::operator[](std::size_t i) const {
  files::RecordReader r(record(i));
  const auto fields = static_cast<std::uint32_t>(r.varint());
  CaseResult c;
  c.name = r.text();
  if (fields & kWorkload) c.workload = r.text();
  if (fields & kVariant) c.variant = r.text();
  if (fields & kSize) c.size = r.varint();
  c.allocs_per_op = r.figure();
  for (const auto& [field, value] :
       {std::pair{kAllocsMin, &c.allocs_per_op_min}, std::pair{kBytes, &c.bytes_per_op},
        std::pair{kPeak, &c.peak_bytes}, std::pair{kLeaked, &c.leaked_bytes_per_op}, std::pair{kNsMedian, &c.ns_median},
        std::pair{kNsMin, &c.ns_min}, std::pair{kNsMax, &c.ns_max}, std::pair{kCpuNsMedian, &c.cpu_ns_median},
        std::pair{kKept, &c.kept_bytes}, std::pair{kOneTime, &c.one_time_allocs},
        std::pair{kOtherThreads, &c.other_thread_allocs}}) {
    if (fields & field) *value = r.figure();
  }
  if (fields & kIterations) c.iterations = static_cast<std::int64_t>(r.varint());
  if (fields & kSha256) c.output_sha256 = r.text();
  if (fields & kEqualKnown) c.equal_to_reference = (fields & kEqual) != 0;
  c.test_failed = (fields & kTestFailed) != 0;
  if (fields & kExtra) {
    const Extra& extra = extras_[r.varint()];
    c.ns_repetitions = extra.ns_repetitions;
    c.sites = extra.sites;
    c.stacks = extra.stacks;
    c.sweep = extra.sweep;
  }
  return c;
}

std::vector<std::uint32_t> CaseList::by_name() const {
  std::vector<std::uint32_t> order(size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return name(a) < name(b); });
  return order;
}

}  // namespace allocgate::reports
