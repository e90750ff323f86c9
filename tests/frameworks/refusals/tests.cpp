// SPDX-License-Identifier: Apache-2.0
// Never built: each configuration here is refused before a build.
int main() { return 0; }
