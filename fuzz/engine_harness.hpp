// SPDX-License-Identifier: Apache-2.0
// The shared half of the fuzz targets that drive the rules engine: a fake
// 8-GPU host (with MIG) and the shipped NVIDIA policy, built once per
// process, and a splitter that turns fuzz bytes into a flags byte plus
// newline-separated values. A failed evaluation must be an Error value with
// a message; anything else (crash, hang, exception, empty message) is a find.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "request/request.hpp"

namespace graft::fuzz {

struct EngineInput {
  bool privileged = false;          // flags bit 0
  bool trust_unprivileged = false;  // flags bit 1: unprivileged containers may ask by env
  std::vector<std::string> values;  // the rest, split at '\n'
};

// The first byte is the flags, the rest is split at '\n' into values.
EngineInput split_engine_input(const std::uint8_t* data, std::size_t size);

// `index` of `values`, or nullptr when the input has fewer lines.
const std::string* value_at(const EngineInput& input, std::size_t index);

// A request with the given env and privilege, id "fuzz", no rootfs.
Request engine_request(const EngineInput& input);

// Runs the engine (rules, then plan) against the fake host's inventory,
// discovered once; aborts when the result breaks the contract (an error
// without a message).
void evaluate_on_fake_host(const Request& request, bool trust_unprivileged);

}  // namespace graft::fuzz
