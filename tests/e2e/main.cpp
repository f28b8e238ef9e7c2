// Catch2 entry point for the end-to-end tests (tests/e2e/CMakeLists.txt says
// why they are a binary of their own).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
