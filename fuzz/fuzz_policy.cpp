// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the policy loader (core/src/policy/load.cpp and the section
// readers and validation behind it). The input is written to policy.toml in
// a per-process temporary directory and loaded with the shipped policies as
// the search path, so `include = ["nvidia"]` reaches the real vendor policy.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "policy/policy.hpp"
#include "site_policy.hpp"
#include "temp_dir.hpp"

namespace {

const std::string& policy_path() {
  static const graft::fixture::TempDir dir("graft-fuzz-policy-");  // removed at exit
  static const std::string path = dir.path() + "/policy.toml";
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = policy_path();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) std::abort();
  }
  static const graft::PolicySearch search{{graft::fixture::source_policy_dir()}};
  auto policy = graft::load_policy(path, search);
  if (!policy && policy.error().message.empty()) std::abort();
  return 0;
}
