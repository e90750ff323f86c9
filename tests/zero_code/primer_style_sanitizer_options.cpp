// SPDX-License-Identifier: Apache-2.0
// The primer-style and kept suites leak on purpose (Leaks.*, Order.*), and
// keep what LeakSanitizer calls leaked at exit (a global locale's caches):
// allocgate is what tells them, so LeakSanitizer's check at exit, under the
// asan-ubsan preset, is off for these binaries alone.

extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
