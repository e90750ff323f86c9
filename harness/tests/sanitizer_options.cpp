// SPDX-License-Identifier: Apache-2.0
// Linked into every test: the standard-conformance tests ask for impossible
// sizes and need malloc's null, which the sanitizers' allocators turn into a
// fatal report unless told otherwise. Unused in builds without sanitizers.

extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }
extern "C" const char* __tsan_default_options() { return "allocator_may_return_null=1"; }
