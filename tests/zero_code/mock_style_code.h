// SPDX-License-Identifier: Apache-2.0
// The mock of gMock's For Dummies guide, and the code under test that drives it.
#pragma once

#include <gmock/gmock.h>

class Turtle {
 public:
  virtual ~Turtle() = default;
  virtual void PenDown() = 0;
  virtual void Forward(int distance) = 0;
  virtual int GetX() const = 0;
};

class MockTurtle : public Turtle {
 public:
  MOCK_METHOD(void, PenDown, (), (override));
  MOCK_METHOD(void, Forward, (int distance), (override));
  MOCK_METHOD(int, GetX, (), (const, override));
};

class Painter {
 public:
  explicit Painter(Turtle* turtle) : turtle_(turtle) {}
  bool DrawCircle(int, int, int radius) {
    turtle_->PenDown();
    turtle_->Forward(radius);
    return true;
  }

 private:
  Turtle* turtle_;
};
