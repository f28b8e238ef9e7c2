// SPDX-License-Identifier: Apache-2.0
// The ld cache writer reads the image's /etc/ld.so.cache as host root,
// outside the container's memory cgroup: a crafted cache must not make
// `graft apply` grow with what the file's offsets ask for. Each case runs
// graft as a child under an address-space limit (so a regression fails
// instead of exhausting the machine) and reads its peak RSS from wait4.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "graft/base/ldcache.hpp"
#include "graft/base/ldcache_write.hpp"
#include "hook_harness.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::harness;

namespace ldcache_rss_test {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

constexpr rlim_t kAddressSpace = 1ull << 30;  // far above graft's need, far below the asks
constexpr long kPeakLimitKib = 64 * 1024;      // graft apply alone peaks near 8 MiB

void put_u32(std::string& out, std::uint32_t value) { out.append(reinterpret_cast<const char*>(&value), 4); }
void put_u64(std::string& out, std::uint64_t value) { out.append(reinterpret_cast<const char*>(&value), 8); }

std::string header(std::size_t count, std::size_t strings, std::uint32_t extension_at) {
  std::string out = "glibc-ld.so.cache1.1";
  put_u32(out, static_cast<std::uint32_t>(count));
  put_u32(out, static_cast<std::uint32_t>(strings));
  out += std::string(1, '\x02') + std::string(3, '\0');
  put_u32(out, extension_at);
  return out + std::string(12, '\0');
}

void entry(std::string& out, std::uint32_t key, std::uint32_t value, std::uint64_t hwcap = 0) {
  put_u32(out, static_cast<std::uint32_t>(ldcache_flags_for(LdCacheAbi::native)));
  put_u32(out, key);
  put_u32(out, value);
  put_u32(out, 0);
  put_u64(out, hwcap);
}

// 300,000 entries whose key and value are one 4,000-byte string: 7 MB that
// ask for 2.4 GB of copies.
std::string shared_string_cache() {
  constexpr std::size_t kCount = 300000;
  const auto strings_at = static_cast<std::uint32_t>(48 + 24 * kCount);
  const std::string shared = "/" + std::string(3999, 'a');
  std::string out = header(kCount, shared.size() + 1, 0);
  for (std::size_t i = 0; i < kCount; ++i) entry(out, strings_at, strings_at);
  return out + shared + '\0';
}

// One entry, and a glibc-hwcaps section of 1,500,000 names that are all one
// 1 MB string: 7 MB that ask for 1.5 TB of copies.
std::string shared_hwcaps_cache() {
  constexpr std::size_t kNames = 1500000;
  const std::string library = "/usr/lib/libimage.so.1";
  const std::string big = std::string(1 << 20, 'x');
  const std::uint32_t strings_at = 48 + 24;
  const std::string strings = library + '\0' + big + '\0';
  const auto extension_at = static_cast<std::uint32_t>((strings_at + strings.size() + 3) & ~3u);
  std::string out = header(1, strings.size(), extension_at);
  entry(out, strings_at, strings_at);
  out += strings;
  out.resize(extension_at, '\0');
  put_u32(out, 0xeaa42174);
  put_u32(out, 1);
  put_u32(out, 1);  // the hwcaps section, right after its header
  put_u32(out, 0);
  put_u32(out, extension_at + 24);
  put_u32(out, static_cast<std::uint32_t>(4 * kNames));
  for (std::size_t i = 0; i < kNames; ++i) put_u32(out, static_cast<std::uint32_t>(strings_at + library.size() + 1));
  return out;
}

struct Run {
  int exit_code = -1;
  long peak_kib = 0;
};

// `graft apply` on a container whose image cache is `cache`, as a child
// under kAddressSpace; its exit code and peak RSS.
Run apply_with_cache(const std::string& name, const std::string& cache) {
  std::string bundle = gpu1_bundle(host().path("/ldcache-rss/" + name));
  std::ofstream(bundle + "/rootfs/etc/ld.so.cache", std::ios::binary) << cache;
  PluginDir plugins;
  std::string policy = write_policy("ldcache-rss-" + name, plugins.path());
  Container container;
  std::vector<std::string> args{GRAFT_BINARY, "--policy", policy, "apply", "--pid", std::to_string(container.pid()),
                                "--rootfs", bundle + "/rootfs", "--bundle", bundle, "--id", name, "--trust-pid"};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    rlimit limit{kAddressSpace, kAddressSpace};
    ::setrlimit(RLIMIT_AS, &limit);
    int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  REQUIRE(::wait4(child, &status, 0, &usage) == child);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), usage.ru_maxrss};
}

}  // namespace ldcache_rss_test

using namespace ldcache_rss_test;

TEST_CASE("An image cache whose entries all name one long string leaves graft apply's peak RSS small",
          "[ldcache][ldcache-bounds][apply]") {
  if (!hook_can_run()) GRAFT_SKIP("needs root and the fake host's device nodes");
  if (kSanitized) GRAFT_SKIP("peak RSS is measured in the Release tree: ASan's shadow and quarantine change it");
  Run run = apply_with_cache("shared-string", shared_string_cache());
  INFO("peak RSS " << run.peak_kib << " KiB");
  CHECK(run.exit_code == 0);
  CHECK(run.peak_kib < kPeakLimitKib);
}

TEST_CASE("An image cache whose glibc-hwcaps names are all one huge string leaves graft apply's peak RSS small",
          "[ldcache][ldcache-bounds][apply]") {
  if (!hook_can_run()) GRAFT_SKIP("needs root and the fake host's device nodes");
  if (kSanitized) GRAFT_SKIP("peak RSS is measured in the Release tree: ASan's shadow and quarantine change it");
  Run run = apply_with_cache("shared-hwcaps", shared_hwcaps_cache());
  INFO("peak RSS " << run.peak_kib << " KiB");
  CHECK(run.exit_code == 0);
  CHECK(run.peak_kib < kPeakLimitKib);
}
