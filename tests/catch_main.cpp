// Catch2's entry point, shared by the unit tests (graft_tests) and the
// end-to-end tests (graft_e2e_tests).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
