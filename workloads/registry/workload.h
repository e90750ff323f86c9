// The workload registry: every workload describes itself here, so the
// benchmarks and the allocgate command can run every case
// `workload/variant/size` without knowing any workload.
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

struct Workload {
  std::string_view name;
  std::string_view summary;
  /// Variant names; the first is the reference every other must equal.
  std::vector<std::string_view> variants;
  /// Input sizes (items per operation), smallest first.
  std::vector<std::size_t> sizes;
  /// The size the case study measured.
  std::size_t default_size;
  /// Builds a case; throws std::invalid_argument for an unknown variant.
  std::unique_ptr<Case> (*prepare)(std::string_view variant, std::size_t size);
};

/// Every workload, in a fixed order.
std::span<const Workload> all_workloads();

/// "workload/variant/size".
std::string case_name(const Workload& workload, std::string_view variant, std::size_t size);

/// Throws std::invalid_argument naming the workload and the variant.
[[noreturn]] void throw_unknown_variant(std::string_view workload, std::string_view variant);

}  // namespace allocgate::workloads
