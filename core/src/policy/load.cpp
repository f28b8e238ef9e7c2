// load_policy: finds and parses the files of a policy (the site file, what it
// includes, its drop-ins) and applies them in merge order: for each file its
// includes depth-first, then the file itself, then its drop-in directories.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "policy/policy.hpp"
#include "policy/read_sections.hpp"
#include "policy/uncommented_toml.hpp"
#include "files/trusted_file.hpp"
#include "policy/validate.hpp"

namespace graft {
namespace {

namespace fs = std::filesystem;
using policy_parse::TomlField;
using policy_parse::FileContext;

std::string absolute_path(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  return (ec ? fs::path(path) : absolute).lexically_normal().string();
}

// Identity of a file for loop and diamond detection: symlinks resolved.
std::string identity(const std::string& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  return ec ? path : canonical.string();
}

Result<toml::table> parse_file(const std::string& path) {
  // Root-owned, not writable by others, in a chain of such directories
  // (files/trusted_file.hpp), read through the fd that was checked.
  auto text = read_trusted_file(path);
  if (!text) return text.error();
  try {
    // A shipped file is parsed without its comment lines: the same document.
    return toml::parse(toml_to_parse(*text), std::string_view(path));
  } catch (const toml::parse_error& e) {
    return make_error("{}: {}", policy_parse::origin_of(e.source(), path).full(), e.description());
  }
}

// A shipped policy name ("acme") as opposed to a path ("site/gpu.toml").
bool is_policy_name(const std::string& text) {
  return text.find('/') == std::string::npos && !text.ends_with(".toml");
}

class Loader {
 public:
  explicit Loader(const PolicySearch& search) : search_(search) {}

  Status load(const std::string& path, const std::string& via) {
    auto root = parse_file(path);
    if (!root) return root.error();
    FileContext file{path, fs::path(path).parent_path().string()};
    stack_.push_back(Frame{identity(path), path, via});
    TomlField top{*root, "", &file.path};

    if (auto status = load_includes(top, file); !status) return status;
    if (auto status = policy_parse::apply_file(*root, file, policy_); !status) return status;
    policy_.files.push_back(path);
    loaded_.insert(stack_.back().id);
    if (auto status = load_drop_ins(top, file); !status) return status;

    stack_.pop_back();
    return ok_status();
  }

  Policy& policy() { return policy_; }

 private:
  struct Frame {
    std::string id;
    std::string path;
    std::string via;  // how the previous frame reached this one
  };

  Result<std::vector<SourcedString>> directive(const TomlField& top, const char* key) {
    const auto& table = *top.node.as_table();
    const toml::node* node = table.get(key);
    if (!node) return std::vector<SourcedString>{};
    return policy_parse::as_sourced_list(top.child(key, *node));
  }

  Result<std::string> find_shipped(const SourcedString& name, const std::string& key) {
    std::vector<std::string> tried;
    for (const auto& dir : search_.policy_dirs) {
      std::string candidate = absolute_path(fmt::format("{}/{}/{}.toml", dir, name.value, name.value));
      if (fs::is_regular_file(candidate)) return candidate;
      tried.push_back(candidate);
    }
    std::string looked = tried.empty() ? "no policy directories configured"
                                       : fmt::format("looked for {}", fmt::join(tried, ", "));
    return policy_parse::error_at(
        name.origin, key, fmt::format("no shipped policy named '{}' ({})", name.value, looked));
  }

  Result<std::string> resolve_include(const SourcedString& include, const std::string& key,
                                      const FileContext& file) {
    if (is_policy_name(include.value)) return find_shipped(include, key);
    std::string path = policy_parse::resolve_path(file, include.value);
    if (!fs::is_regular_file(path)) {
      return policy_parse::error_at(include.origin, key,
                                    fmt::format("included file {} does not exist", path));
    }
    return path;
  }

  std::string chain_to(const std::string& id, const std::string& last_via,
                       const std::string& last_path) const {
    auto start = std::find_if(stack_.begin(), stack_.end(),
                              [&](const Frame& frame) { return frame.id == id; });
    std::string chain = start->path;
    for (auto it = start + 1; it != stack_.end(); ++it) chain += " " + it->via + " " + it->path;
    return chain + " " + last_via + " " + last_path;
  }

  // A file already merged is not merged again (a diamond), but a file still
  // being loaded that is reached again is a loop.
  Status enter(const std::string& path, const std::string& via, const Origin& origin,
               const std::string& key) {
    std::string id = identity(path);
    bool on_stack = std::any_of(stack_.begin(), stack_.end(),
                                [&](const Frame& frame) { return frame.id == id; });
    if (on_stack) {
      return policy_parse::error_at(origin, key,
                                    "include loop: " + chain_to(id, via, path));
    }
    if (loaded_.contains(id)) return ok_status();
    return load(path, via);
  }

  Status load_includes(const TomlField& top, const FileContext& file) {
    auto includes = directive(top, "include");
    if (!includes) return includes.error();
    for (std::size_t i = 0; i < includes->size(); ++i) {
      const auto& include = (*includes)[i];
      std::string key = fmt::format("include[{}]", i);
      auto path = resolve_include(include, key, file);
      if (!path) return path.error();
      if (auto status = enter(*path, "includes", include.origin, key); !status) return status;
    }
    return ok_status();
  }

  Status load_drop_ins(const TomlField& top, const FileContext& file) {
    auto dirs = directive(top, "drop_ins");
    if (!dirs) return dirs.error();
    for (std::size_t i = 0; i < dirs->size(); ++i) {
      const auto& dir = (*dirs)[i];
      std::string key = fmt::format("drop_ins[{}]", i);
      std::string path = policy_parse::resolve_path(file, dir.value);
      // Kept even when missing: a directory that appears later changes the policy.
      policy_.drop_ins.push_back(SourcedString{path, dir.origin});
      auto files = list_drop_ins(path, dir.origin, key);
      if (!files) return files.error();
      for (const auto& path : *files) {
        if (auto status = enter(path, "has drop-in", dir.origin, key); !status) return status;
      }
    }
    return ok_status();
  }

  // *.toml files of a drop-in directory in lexical order; a missing directory
  // is simply empty, so packages can ship the directive before any drop-in.
  Result<std::vector<std::string>> list_drop_ins(const std::string& dir, const Origin& origin,
                                                 const std::string& key) {
    std::vector<std::string> files;
    std::error_code ec;
    if (!fs::exists(dir, ec)) return files;
    if (!fs::is_directory(dir, ec)) {
      return policy_parse::error_at(origin, key, fmt::format("{} is not a directory", dir));
    }
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.path().extension() == ".toml" && entry.is_regular_file()) {
        files.push_back(entry.path().lexically_normal().string());
      }
    }
    if (ec) return policy_parse::error_at(origin, key, fmt::format("cannot list {}: {}", dir, ec.message()));
    std::sort(files.begin(), files.end());
    return files;
  }

  const PolicySearch& search_;
  Policy policy_;
  std::vector<Frame> stack_;
  std::set<std::string> loaded_;
};

}  // namespace

Result<Policy> load_policy(const std::string& path, const PolicySearch& search) {
  Loader loader(search);
  if (auto status = loader.load(absolute_path(path), ""); !status) return status.error();
  if (auto status = policy_parse::validate_policy(loader.policy()); !status) return status.error();
  return std::move(loader.policy());
}

}  // namespace graft
