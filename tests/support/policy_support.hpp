// SPDX-License-Identifier: Apache-2.0
// Shared setup for the [policy] tests: a fresh temp dir that each test writes
// its policy files into.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include <catch2/catch.hpp>

#include "policy/policy.hpp"

namespace graft::policy_test {

// The error loading the policy at `path` gives; fails the case if it loads.
inline std::string load_error(const std::string& path, const PolicySearch& search = {}) {
  auto loaded = load_policy(path, search);
  if (loaded) FAIL("expected an error loading " << path);
  return loaded.error().message;
}

// A temp dir to write policy files into; removed with its contents.
class PolicyFiles {
 public:
  PolicyFiles() {
    std::string pattern = (std::filesystem::temp_directory_path() / "graft-policy-XXXXXX").string();
    root_ = ::mkdtemp(pattern.data());
  }
  ~PolicyFiles() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  std::string write(const std::string& relative, const std::string& text) const {
    std::filesystem::path path = std::filesystem::path(root_) / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }
  std::string path(const std::string& relative) const { return root_ + "/" + relative; }

 private:
  std::string root_;
};

// The error of a one-file policy, with the file's path replaced by "F".
inline std::string error_in_file(const std::string& text) {
  PolicyFiles files;
  auto path = files.write("graft.toml", text);
  auto message = load_error(path);
  if (message.rfind(path, 0) == 0) message = "F" + message.substr(path.size());
  return message;
}

}  // namespace graft::policy_test
