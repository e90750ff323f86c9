// SPDX-License-Identifier: Apache-2.0
// SHA-256 of a workload's output, as the case studies compare versions.
#pragma once

#include <string>
#include <string_view>

namespace allocgate::workloads {

/// Lower-case hex SHA-256 of bytes (OpenSSL's EVP digest).
std::string sha256_hex(std::string_view bytes);

}  // namespace allocgate::workloads
