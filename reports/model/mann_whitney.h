// SPDX-License-Identifier: Apache-2.0
// Whether two sets of times differ by more than noise: the Mann-Whitney U
// test benchstat uses, which assumes nothing of the times' distribution.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace allocgate::reports {

/// The smallest two-sided p-value samples of these sizes can give: when it
/// is not below the significance level, no difference can be told from noise.
double smallest_p(std::size_t n1, std::size_t n2);

/// The two-sided p-value of the Mann-Whitney U test: exact (counting every
/// arrangement) for samples without ties of at most 50 values together, the
/// normal approximation with the tie correction otherwise. Absent when
/// either sample is empty.
std::optional<double> mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace allocgate::reports
