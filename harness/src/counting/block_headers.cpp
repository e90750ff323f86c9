// SPDX-License-Identifier: Apache-2.0
// Opt-in (link allocgate::block_headers): every block carries a header with
// its requested size, so that the size of every free is known, whatever delete
// form frees it, and bytes freed, net and peak live bytes are exact. The hook
// reads this flag on the process's first allocation; see hook.cpp.

#include "counting/thread_state.h"

extern "C" const bool allocgate_block_headers_linked = true;
