// Numbers as the command prints them: exact, the same in every locale.
#pragma once

#include <string>

namespace allocgate::reports {

/// Shortest text that reads back as the same double: "15022", "0.0625".
std::string exact(double value);

/// exact() with a sign: "+1000", "-3", "+0".
std::string signed_exact(double value);

/// A ratio with two decimals and an x: "0.50x", "12.31x".
std::string ratio(double r);

/// A time in nanoseconds: one decimal below 100 ("66.2"), whole above ("1564991").
std::string nanoseconds(double ns);

}  // namespace allocgate::reports
