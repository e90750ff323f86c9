// SPDX-License-Identifier: Apache-2.0
// A suite written as gMock's For Dummies guide writes one, linked with
// allocgate::gtest_main. zero_code_gtest_test.cpp runs it whole, each test
// alone, and a copy of it at a longer path: gMock's bookkeeping (its mock
// registry, the reactions of nice and strict mocks, the location each
// EXPECT_CALL formats) is not the tests', so every figure is the same.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "mock_style_code.h"

using ::testing::AtLeast;
using ::testing::NiceMock;
using ::testing::Return;
using ::testing::StrictMock;

TEST(PainterTest, CanDrawSomething) {
  MockTurtle turtle;
  EXPECT_CALL(turtle, PenDown()).Times(AtLeast(1));
  EXPECT_CALL(turtle, Forward(10));
  Painter painter(&turtle);
  EXPECT_TRUE(painter.DrawCircle(0, 0, 10));
}

// Keeps a string the compiler could otherwise leave unbuilt.
void use(const std::string& s) { asm volatile("" : : "g"(s.data()) : "memory"); }

TEST(PainterTest, StrictAboutOtherCalls) {
  StrictMock<MockTurtle> turtle;
  EXPECT_CALL(turtle, Forward(10)).WillOnce([](int distance) { use(std::string(distance, 'a')); });
  turtle.Forward(10);
}

// The same, but the action makes a string of 40: its allocation is the test's.
TEST(PainterTest, StrictWithAnActionThatAllocates) {
  StrictMock<MockTurtle> turtle;
  EXPECT_CALL(turtle, Forward(10)).WillOnce([](int distance) { use(std::string(distance * 4, 'a')); });
  turtle.Forward(10);
}

TEST(PainterTest, NiceAboutOtherCalls) {
  NiceMock<MockTurtle> turtle;
  ON_CALL(turtle, GetX()).WillByDefault(Return(5));
  turtle.PenDown();
  EXPECT_EQ(turtle.GetX(), 5);
}
