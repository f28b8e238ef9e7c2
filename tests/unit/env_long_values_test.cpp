// NVIDIA env contract under long values: the shipped rules must read an env
// value of a mebibyte in linear time. Lua's pattern matching runs in C, out of
// reach of the rules sandbox's instruction budget, so a quadratic pattern
// there is a hang the sandbox cannot stop (found by fuzz/fuzz_env_devices).
#include <chrono>
#include <string>

#include <catch2/catch.hpp>

#include "env_support.hpp"

using namespace graft;
using namespace graft::env_test;

namespace {

// "0", a mebibyte of blanks, "1": the worst case for `^%s*(.-)%s*$`.
const std::string kSpacedValue = "0" + std::string(1u << 20, ' ') + "1";

// Evaluates and returns the refusal, failing when it took longer than a hang would not.
std::string timed_refusal(const Env& env, bool privileged = false) {
  auto start = std::chrono::steady_clock::now();
  auto intent = evaluate_env(env, privileged);
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 20.0);  // the quadratic trim took hours here; linear takes milliseconds
  return refusal(intent);
}

}  // namespace

TEST_CASE("A device list with a mebibyte of blanks between two ids is refused promptly", "[env]") {
  auto text = timed_refusal({{"NVIDIA_VISIBLE_DEVICES", kSpacedValue}});
  CHECK(text.starts_with("unknown device '0 "));
}

TEST_CASE("A capability list with a mebibyte of blanks inside a name is refused promptly",
          "[env]") {
  auto text = timed_refusal({{"NVIDIA_VISIBLE_DEVICES", "0"},
                             {"NVIDIA_DRIVER_CAPABILITIES", kSpacedValue}});
  CHECK(text.starts_with("unsupported capability '0 "));
}

TEST_CASE("A MIG config request with a mebibyte of blanks inside is refused promptly", "[env]") {
  auto text = timed_refusal(
      {{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_MIG_CONFIG_DEVICES", kSpacedValue}},
      /*privileged=*/true);
  CHECK(text.starts_with("invalid NVIDIA_MIG_CONFIG_DEVICES '0 "));
}

TEST_CASE("Values that are only blanks still count as empty after trimming", "[env]") {
  std::string blanks(1u << 20, ' ');
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"},
                              {"NVIDIA_DRIVER_CAPABILITIES", blanks},
                              {"NVIDIA_MIG_CONFIG_DEVICES", blanks}});
  CHECK_FALSE(intent.refusal);
  CHECK(capabilities(intent) == default_capabilities());
}
