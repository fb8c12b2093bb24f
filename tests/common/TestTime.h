// The tests' own time limits, scaled for the build: CS_TEST_TIME_SCALE (set for every test
// program by tests/CMakeLists.txt) is 1, or more where the build is sanitized and runs several
// times slower (ThreadSanitizer about ten times). A bound on a wait grows with it; what is
// waited for stays the same.
#pragma once

#ifndef CS_TEST_TIME_SCALE
#error "CS_TEST_TIME_SCALE is defined for the test programs by tests/CMakeLists.txt"
#endif

namespace cs::test {

inline constexpr int kTimeScale = CS_TEST_TIME_SCALE;

// A wait's bound of `ms` milliseconds in a plain build, in this build.
constexpr int scaledMs(int ms) { return ms * kTimeScale; }

}  // namespace cs::test
