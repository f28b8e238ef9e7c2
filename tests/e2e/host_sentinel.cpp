#include "host_sentinel.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "fixture_files.hpp"

namespace graft::e2e {
namespace {

// FNV-1a, 64 bits: a checksum to see a changed byte, not a security hash.
std::uint64_t checksum(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::uint64_t hash = 14695981039346656037ull;
  for (std::istreambuf_iterator<char> it(in), end; it != end; ++it) {
    hash ^= static_cast<unsigned char>(*it);
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string facts(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return "unreadable";
  std::string out = fmt::format("mode {:o} uid {} gid {} size {} mtime {}.{}", st.st_mode, st.st_uid,
                                st.st_gid, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
  if (S_ISREG(st.st_mode)) out += fmt::format(" sum {:016x}", checksum(path));
  if (S_ISLNK(st.st_mode)) out += " -> " + std::filesystem::read_symlink(path).string();
  return out;
}

}  // namespace

HostSentinel::HostSentinel() {
  const std::string root = path();
  for (const char* dir : {"/lib", "/usr/lib/x86_64-linux-gnu", "/etc/ld.so.conf.d", "/dev",
                          "/bin", "/run/nvidia-persistenced", "/firmware"})
    fixture::make_dirs(root + dir);
  for (const char* file : {"/libcuda.so.1", "/libcuda.so.560.35.03", "/ld.so.cache", "/nvidia-smi",
                           "/socket", "/gsp_ga10x.bin", "/etc/ld.so.cache", "/etc/passwd",
                           "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/bin/nvidia-smi",
                           "/run/nvidia-persistenced/socket"})
    fixture::write_file(root + file, fmt::format("host sentinel {}: must never change\n", file));
  fixture::make_symlink("libcuda.so.560.35.03", root + "/lib/libcuda.so");
  recorded_ = snapshot();
}

HostSentinel::Snapshot HostSentinel::snapshot() const {
  Snapshot out;
  out["."] = facts(path());
  for (const auto& entry : std::filesystem::recursive_directory_iterator(path())) {
    std::string full = entry.path().string();
    out[full.substr(path().size() + 1)] = facts(full);
  }
  return out;
}

std::vector<std::string> HostSentinel::changes() const {
  std::vector<std::string> changed;
  Snapshot now = snapshot();
  for (const auto& [name, was] : recorded_) {
    auto it = now.find(name);
    if (it == now.end()) changed.push_back("missing " + name);
    else if (it->second != was) changed.push_back("changed " + name + ": " + was + " => " + it->second);
  }
  for (const auto& [name, facts] : now)
    if (!recorded_.count(name)) changed.push_back("new entry " + name + ": " + facts);
  return changed;
}

}  // namespace graft::e2e
