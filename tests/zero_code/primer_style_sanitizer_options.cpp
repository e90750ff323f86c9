// SPDX-License-Identifier: Apache-2.0
// The primer-style suite leaks on purpose (Leaks.*): allocgate is what finds
// those leaks, so LeakSanitizer's check at exit, under the asan-ubsan preset,
// is off for this binary alone.

extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
