// SPDX-License-Identifier: Apache-2.0
// The workload registry: every workload describes itself beside its code (a
// table of variants, the input sizes), and the registry turns the workloads
// into cases `workload/variant/size`, so the benchmarks and the allocgate
// command run every case without knowing any workload.
//
// Which workloads a program has is decided by CMake: allocgate_add_registry()
// generates all_workloads() from a list of names (see workloads/CMakeLists.txt).
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace allocgate::workloads {

/// One variant of one workload at one input size, with its inputs already
/// built (outside anything measured).
class Case {
 public:
  virtual ~Case() = default;
  /// One operation: the unit that is timed and whose allocations are counted.
  virtual void run() = 0;
  /// The bytes the last run produced, for hashing and for comparing a variant
  /// with its reference. Not measured; may allocate.
  virtual std::string output() const = 0;
};

/// A way to do the workload's job: its name and how to build a case of it.
struct Variant {
  std::string_view name;
  std::unique_ptr<Case> (*prepare)(std::size_t size);
};

struct Workload {
  std::string_view name;
  std::string_view summary;
  /// The first is the reference every other must equal, byte for byte.
  std::vector<Variant> variants;
  /// Input sizes (items per operation), smallest first.
  std::vector<std::size_t> sizes;
  /// The size the case study measured.
  std::size_t default_size;

  const Variant& reference() const { return variants.front(); }
};

/// A Variant's prepare for a case class built from (size, args...):
/// `{"v4", &make_case<ReusedCase>}`, `{"pooled", &make_case<PerLineCase, true>}`.
template <class C, auto... args>
std::unique_ptr<Case> make_case(std::size_t size) {
  return std::make_unique<C>(size, args...);
}

/// One registered case: a workload's variant at one of its sizes.
struct CaseRef {
  const Workload* workload;
  const Variant* variant;
  std::size_t size;
  std::string name;  ///< "workload/variant/size"

  std::unique_ptr<Case> prepare() const { return variant->prepare(size); }
  /// The same workload and size, its reference variant.
  std::unique_ptr<Case> prepare_reference() const { return workload->reference().prepare(size); }
};

/// Every workload of this program, in the order of its CMake list. Defined by
/// the source allocgate_add_registry() generates.
std::span<const Workload> all_workloads();

/// Every case: workloads in order, then variants in order, then sizes.
std::span<const CaseRef> all_cases();

/// The case named "workload/variant/size"; nullptr when there is none.
const CaseRef* find_case(std::string_view name);

}  // namespace allocgate::workloads
