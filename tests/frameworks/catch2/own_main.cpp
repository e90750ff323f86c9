// SPDX-License-Identifier: Apache-2.0
// A main() of the project's own, as Catch2's docs write one: the suite
// linked with allocgate::catch2 beside it is counted the same.
#include <catch2/catch_session.hpp>

int main(int argc, char* argv[]) {
  Catch::Session session;
  return session.run(argc, argv);
}
