// SPDX-License-Identifier: Apache-2.0
// The counts where a program's code lives elsewhere: in a shared library it
// links, and in a plugin it loads with dlopen, whose allocation sites are
// named by the plugin's own file and line.

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "allocgate/allocgate.h"
#include "allocgate/sites.h"

extern "C" std::size_t allocgate_test_build_strings(std::size_t n);
extern "C" std::size_t allocgate_test_build_without_symbols(std::size_t n);

namespace {

TEST(Linking, AllocationsInASharedLibraryAreCounted) {
  const auto stats = allocgate::measure([] { allocgate_test_build_strings(10); });
  EXPECT_EQ(stats.allocations, 11u);  // the vector's array and ten 40-character strings
  EXPECT_EQ(stats.deallocations, 11u);
}

TEST(Linking, AllocationsInADlopenedPluginAreCountedAndTheirSitesNamed) {
  void* plugin = ::dlopen(ALLOCGATE_TEST_PLUGIN, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(plugin, nullptr) << ::dlerror();
  using Build = std::size_t (*)(std::size_t);
  const auto build = reinterpret_cast<Build>(::dlsym(plugin, "allocgate_test_build_strings"));
  ASSERT_NE(build, nullptr);
  EXPECT_EQ(allocgate::measure([&] { build(5); }).allocations, 6u);

  allocgate::CaptureSites capture;
  build(5);
  capture.stop();
  const allocgate::SiteProfile profile = capture.profile();
  EXPECT_EQ(profile.allocations, 6u);
  const std::string top = profile.top(5);
  EXPECT_NE(top.find("library.cpp:"), std::string::npos) << top;
  EXPECT_NE(top.find("allocgate_test_build_strings"), std::string::npos) << top;
  ::dlclose(plugin);
}

// A frame with neither line nor name is the library and the offset in it,
// as heaptrack prints it; the exported function keeps its name.
TEST(Linking, AFrameWithoutSymbolsIsNamedByItsLibraryAndOffset) {
  allocgate::CaptureSites capture;
  allocgate_test_build_without_symbols(3);
  capture.stop();
  const allocgate::SiteProfile profile = capture.profile();
  bool offset = false, exported = false;
  for (const auto& stack : profile.stacks) {
    for (const auto& frame : stack.frames) {
      const std::string& f = frame.function;
      if (f.rfind("liballocgate_test_without_symbols.so+0x", 0) == 0) {
        offset = true;
        EXPECT_EQ(f.find_first_not_of("0123456789abcdef", std::strlen("liballocgate_test_without_symbols.so+0x")),
                  std::string::npos)
            << f;
        EXPECT_TRUE(frame.file.empty()) << frame.file;
      }
      exported |= f == "allocgate_test_build_without_symbols";
      EXPECT_NE(f, "??");
    }
  }
  EXPECT_TRUE(offset) << profile.top(5);
  EXPECT_TRUE(exported) << profile.top(5);
}

}  // namespace
