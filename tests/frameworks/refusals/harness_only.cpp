// SPDX-License-Identifier: Apache-2.0
// A program that counts its own allocations with the harness alone.
#include <allocgate/scope.h>

#include <string>

int main() {
  allocgate::AllocationScope scope;
  const std::string text(100, 'x');
  return scope.stats().allocations == 1 && text.size() == 100 ? 0 : 1;
}
