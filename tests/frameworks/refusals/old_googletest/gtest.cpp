// SPDX-License-Identifier: Apache-2.0
void old_googletest_stand_in() {}
