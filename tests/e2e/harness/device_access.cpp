// SPDX-License-Identifier: Apache-2.0
#include "device_access.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <stdexcept>

#include "gpu_host.hpp"

namespace graft::e2e {

std::vector<std::string> open_node_command(const std::string& path) { return {"/bin/head", "-c", "0", path}; }

std::string open_node_outcome(const testing::CommandResult& run) {
  if (run.exit_code == 0) return "ok";
  std::string said = run.err;
  while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
  // "head: /dev/nvidia1: No such device or address"; anything
  // else (the runtime's own error) whole.
  auto colon = said.rfind(": ");
  if (!said.starts_with("head: ") || colon == std::string::npos) return said;
  return said.substr(colon + 2);
}

HandMadeNode fake_gpu0_node() {
  std::string host_node = gpu_host().host.path("/dev/nvidia0");
  struct stat node {};
  if (::stat(host_node.c_str(), &node) != 0 || !S_ISCHR(node.st_mode))
    throw std::runtime_error("the fake host has no GPU 0 node at " + host_node);
  return {"/dev/nvidia0", ::major(node.st_rdev), ::minor(node.st_rdev)};
}

std::vector<std::string> mknod_command(const HandMadeNode& node) {
  return {"/bin/mknod", node.path, "c", std::to_string(node.major), std::to_string(node.minor)};
}

std::vector<std::string> runc_update_options(bool has_memory_controller) {
  if (has_memory_controller) return {"--memory", "268435456"};
  return {};
}

}  // namespace graft::e2e
