// The source the tests' precompiled header (tests/CMakeLists.txt: cs_test_pch) is built with.
