// SPDX-License-Identifier: Apache-2.0
// graft-fake-host: builds a fake GPU host (see tests/fixture/fake_host.hpp)
// into a directory that stays, with a site policy pointing at it. Used by the
// README demo, the benchmarks (bench/) and for poking at graft by hand
// without a GPU. --mig gives each GPU instances (1,0), (2,0), (2,1);
// --mig=K gives each GPU K GPU instances with one compute instance each.
// --vendor amd builds an AMD host instead (tests/fixture/fake_amd_host.hpp)
// with a site policy including the amd policy; --partitions=P splits each
// of its GPUs into P kfd nodes, as MI300 compute partitions do.
// --vendor nvidia,amd builds a host of both: GPUS NVIDIA and GPUS AMD GPUs,
// with a site policy including both vendor policies.
//   graft-fake-host DIR [GPUS] [--mig | --mig=K]
//   graft-fake-host DIR [GPUS] --vendor amd [--partitions=P]
//   graft-fake-host DIR [GPUS] --vendor nvidia,amd
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "fake_amd_host.hpp"
#include "fake_host.hpp"
#include "site_policy.hpp"

namespace {

// Copies the built tree to `out`, writes its site policy there and prints the policy's path.
template <typename Host>
int keep_host(const Host& host, const std::string& out, const std::string& vendor) {
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out);
  // cp -a keeps device nodes, sockets and links, which std::filesystem::copy does not.
  std::string command = "cp -a '" + host.root() + "/.' '" + out + "/'";
  if (std::system(command.c_str()) != 0) throw std::runtime_error("copy failed: " + command);
  std::string root = std::filesystem::canonical(out).string();
  std::string policy =
      graft::fixture::write_vendor_site_policy_at(root, vendor, "[audit]\nlog = \"" + root + "/audit.jsonl\"\n");
  if (!host.device_nodes_created())
    std::fprintf(stderr, "note: no device nodes (%s)\n", host.device_nodes_problem().c_str());
  std::printf("%s\n", policy.c_str());
  return 0;
}

// The value of `--name=V` among the arguments, or of `--name V`; "" when absent.
std::string option(int argc, char** argv, const std::string& name) {
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.starts_with(name + "=")) return arg.substr(name.size() + 1);
    if (arg == name && i + 1 < argc) return argv[i + 1];
  }
  return {};
}

int build_nvidia_host(int argc, char** argv, const std::string& out, unsigned gpus) {
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
  return keep_host(graft::fixture::FakeHost::build(spec), out, "nvidia");
}

int build_amd_host(int argc, char** argv, const std::string& out, unsigned gpus) {
  std::string partitions_text = option(argc, argv, "--partitions");
  unsigned partitions = partitions_text.empty() ? 1 : static_cast<unsigned>(std::atoi(partitions_text.c_str()));
  auto spec = partitions > 1 ? graft::fixture::FakeAmdHostSpec::with_partitions(gpus, partitions)
                             : graft::fixture::FakeAmdHostSpec::with_gpus(gpus);
  return keep_host(graft::fixture::FakeAmdHost::build(spec), out, "amd");
}

int build_two_vendor_host(const std::string& out, unsigned gpus) {
  auto host = graft::fixture::FakeHost::build(graft::fixture::FakeHostSpec::with_gpus(gpus, false));
  std::string problem =
      graft::fixture::add_fake_amd_gpus(host.root(), graft::fixture::FakeAmdHostSpec::with_gpus(gpus));
  if (!problem.empty()) std::fprintf(stderr, "note: no AMD device nodes (%s)\n", problem.c_str());
  return keep_host(host, out, "nvidia,amd");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: graft-fake-host DIR [GPUS] [--mig | --mig=K | --vendor amd [--partitions=P] | "
                 "--vendor nvidia,amd]\n");
    return 2;
  }
  std::string out = argv[1];
  unsigned gpus = argc > 2 && argv[2][0] != '-' ? static_cast<unsigned>(std::atoi(argv[2])) : 8;
  std::string vendor = option(argc, argv, "--vendor");
  if (!vendor.empty() && vendor != "nvidia" && vendor != "amd" && vendor != "nvidia,amd") {
    std::fprintf(stderr, "graft-fake-host: unknown vendor '%s' (nvidia, amd or nvidia,amd)\n", vendor.c_str());
    return 2;
  }
  try {
    if (vendor == "nvidia,amd") return build_two_vendor_host(out, gpus);
    return vendor == "amd" ? build_amd_host(argc, argv, out, gpus) : build_nvidia_host(argc, argv, out, gpus);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "graft-fake-host: %s\n", error.what());
    return 1;
  }
}
