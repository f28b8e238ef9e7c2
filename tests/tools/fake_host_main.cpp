// SPDX-License-Identifier: Apache-2.0
// graft-fake-host: builds a fake GPU host (see tests/fixture/fake_host.hpp)
// into a directory that stays, with a site policy pointing at it. Used by the
// README demo, the benchmarks (bench/) and for poking at graft by hand
// without a GPU. --mig gives each GPU instances (1,0), (2,0), (2,1);
// --mig=K gives each GPU K GPU instances with one compute instance each.
//   graft-fake-host DIR [GPUS] [--mig | --mig=K]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "fake_host.hpp"
#include "site_policy.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: graft-fake-host DIR [GPUS] [--mig | --mig=K]\n");
    return 2;
  }
  std::string out = argv[1];
  unsigned gpus = argc > 2 && argv[2][0] != '-' ? static_cast<unsigned>(std::atoi(argv[2])) : 8;
  const char* last = argv[argc - 1];
  bool mig = argc > 2 && std::strcmp(last, "--mig") == 0;
  unsigned instances = argc > 2 && std::strncmp(last, "--mig=", 6) == 0
                           ? static_cast<unsigned>(std::atoi(last + 6))
                           : 0;
  if (instances > graft::fixture::kMigMaxGi - 1) {
    std::fprintf(stderr, "graft-fake-host: at most %u MIG instances per GPU\n",
                 graft::fixture::kMigMaxGi - 1);
    return 2;
  }
  auto spec = graft::fixture::FakeHostSpec::with_gpus(gpus, mig);
  for (auto& gpu : spec.gpus) {
    for (unsigned gi = 1; gi <= instances; ++gi) gpu.mig.emplace_back(gi, 0u);
  }
  try {
    auto host = graft::fixture::FakeHost::build(spec);
    std::filesystem::remove_all(out);
    std::filesystem::create_directories(out);
    // cp -a keeps device nodes, sockets and links, which std::filesystem::copy does not.
    std::string command = "cp -a '" + host.root() + "/.' '" + out + "/'";
    if (std::system(command.c_str()) != 0) throw std::runtime_error("copy failed: " + command);
    std::string policy = graft::fixture::write_site_policy_at(
        std::filesystem::canonical(out).string(),
        "[audit]\nlog = \"" + std::filesystem::canonical(out).string() + "/audit.jsonl\"\n");
    if (!host.device_nodes_created())
      std::fprintf(stderr, "note: no device nodes (%s)\n", host.device_nodes_problem().c_str());
    std::printf("%s\n", policy.c_str());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "graft-fake-host: %s\n", error.what());
    return 1;
  }
  return 0;
}
