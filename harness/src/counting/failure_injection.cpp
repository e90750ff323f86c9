// SPDX-License-Identifier: Apache-2.0
// InjectAllocationFailure: arms the hook's one-shot failure countdown.

#include "allocgate/failure_injection.h"

#include <stdexcept>
#include <string>

#include "allocgate/scope.h"
#include "counting/thread_state.h"

namespace allocgate {

InjectAllocationFailure::InjectAllocationFailure(std::uint64_t nth) {
  require_hook();  // an injection that can never fire would pass every test
  detail::ThreadState& t = detail::thread_state();
  if ((t.mode & detail::kFailureArmed) || t.failure_fired) {
    throw std::logic_error(
        "allocgate: an allocation failure is already injected on this thread; "
        "InjectAllocationFailure does not nest");
  }
  t.fail_countdown = nth;
  t.failure_fired = false;
  t.mode |= detail::kFailureArmed;
}

InjectAllocationFailure::~InjectAllocationFailure() {
  detail::ThreadState& t = detail::thread_state();
  t.mode &= ~static_cast<std::uint32_t>(detail::kFailureArmed);
  t.failure_fired = false;
}

bool InjectAllocationFailure::fired() const noexcept { return detail::thread_state().failure_fired; }

namespace detail {
void throw_sweep_limit(std::uint64_t max_points) {
  throw std::runtime_error("allocgate::fail_each_allocation: fn still allocates after " + std::to_string(max_points) +
                           " injected failures");
}
}  // namespace detail

}  // namespace allocgate
