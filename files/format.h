// SPDX-License-Identifier: Apache-2.0
// Numbers as the command prints them: exact, the same in every locale.
#pragma once

#include <optional>
#include <string>

namespace allocgate::files {

/// Shortest text that reads back as the same double: "15022", "0.0625".
std::string exact(double value);

/// exact() with a sign: "+1000", "-3", "+0".
std::string signed_exact(double value);

/// A figure for a table, where exact() could run 20 characters long: whole
/// numbers exactly ("15022"), others to three significant digits ("2.72",
/// "0.000778") or one decimal from 100 on ("1234.6"), marked "~" where the
/// rounding would read as a whole number ("~3"). Reports keep exact().
std::string readable(double value);

/// readable() with a sign: "+1000", "-0.5", "+0".
std::string signed_readable(double value);

/// A figure for an axis, at most 7 characters: readable() below 10,000, then
/// three significant digits and an SI prefix ("50.5k", "1.23M", "4.00G").
std::string compact(double value);

/// A time in nanoseconds for an axis, at most 8 characters, in the unit that
/// keeps it short: "66.2 ns", "50.5 µs", "1.56 ms", "2.10 s".
std::string compact_nanoseconds(double ns);

/// A ratio with two decimals and an x: "0.50x", "12.31x".
std::string ratio(double r);

/// A share in percent, whole from 1% on ("5%"), one decimal below ("0.4%").
std::string percent(double share);

/// A change in percent, with a sign and one decimal: "+19.6%", "-50.0%".
std::string signed_percent(double change);

/// A time in nanoseconds: one decimal below 100 ("66.2"), whole above ("1564991").
std::string nanoseconds(double ns);

/// The median time with the fastest and slowest repetition, as the pages
/// print it: "873676 (869317 to 884547)"; the median alone where the range
/// is absent or empty.
std::string nanoseconds_with_range(double median, std::optional<double> fastest, std::optional<double> slowest);

}  // namespace allocgate::files
