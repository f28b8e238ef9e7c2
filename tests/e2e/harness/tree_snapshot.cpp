// SPDX-License-Identifier: Apache-2.0
#include "tree_snapshot.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

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

// ctime is in: a chmod undone by a second chmod still shows.
std::string facts(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return "unreadable";
  std::string out = fmt::format("mode {:o} uid {} gid {} size {} rdev {:x} mtime {}.{} ctime {}.{}",
                                st.st_mode, st.st_uid, st.st_gid, st.st_size, st.st_rdev,
                                st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_ctim.tv_sec,
                                st.st_ctim.tv_nsec);
  if (S_ISREG(st.st_mode)) out += fmt::format(" sum {:016x}", checksum(path));
  if (S_ISLNK(st.st_mode)) out += " -> " + std::filesystem::read_symlink(path).string();
  return out;
}

}  // namespace

TreeSnapshot::TreeSnapshot(std::string root, std::set<std::string> ignored)
    : root_(std::move(root)), ignored_(std::move(ignored)), recorded_(take()) {}

TreeSnapshot::Entries TreeSnapshot::take() const {
  Entries out;
  out["."] = facts(root_);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root_)) {
    std::string full = entry.path().string();
    std::string relative = full.substr(root_.size() + 1);
    if (!ignored_.count(relative)) out[relative] = facts(full);
  }
  return out;
}

std::vector<std::string> TreeSnapshot::changes() const {
  std::vector<std::string> changed;
  Entries now = take();
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
