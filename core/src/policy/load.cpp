// SPDX-License-Identifier: Apache-2.0
// load_policy: finds and parses the files of a policy (the site file, what it
// includes, its drop-ins) in merge order: for each file its includes
// depth-first, then the file itself, then its drop-in directories. Each file
// is in a layer: a shipped policy (included by name, or by a path in a
// policy directory) and all it reaches is the vendor layer; the rest is the
// site layer. The vendor layer's files are
// applied first, then the site layer's, each in merge order, so a vendor
// value never overrides a site value whatever the include order.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "policy/data_schema.hpp"
#include "policy/key_origins.hpp"
#include "policy/nesting.hpp"
#include "policy/policy.hpp"
#include "policy/read_sections.hpp"
#include "policy/uncommented_toml.hpp"
#include "trust/trusted_file.hpp"
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
  // (trust/trusted_file.hpp), read through the fd that was checked.
  auto text = read_trusted_file(path);
  if (!text) return text.error();
  try {
    // A shipped file is parsed without its comment lines: the same document.
    std::string_view document = toml_to_parse(*text);
    if (auto status = policy_parse::check_key_depth(document, path); !status) return status.error();
    return toml::parse(document, std::string_view(path));
  } catch (const toml::parse_error& e) {
    return make_error("{}: {}", policy_parse::origin_of(e.source(), path).full(), e.description());
  }
}

// A shipped policy name ("acme") as opposed to a path ("site/gpu.toml").
bool is_policy_name(const std::string& text) {
  return text.find('/') == std::string::npos && !text.ends_with(".toml");
}

enum class Layer { vendor, site };

class Loader {
 public:
  explicit Loader(const PolicySearch& search) : search_(search) {}

  Status load(const std::string& path, const std::string& via, Layer layer) {
    auto root = parse_file(path);
    if (!root) return root.error();
    auto file = std::make_unique<ParsedFile>(
        ParsedFile{FileContext{path, fs::path(path).parent_path().string(), layer == Layer::vendor},
                   std::move(*root)});
    stack_.push_back(Frame{identity(path), path, via, layer});
    TomlField top{file->root, "", &file->context.path};

    if (auto status = load_includes(top, file->context); !status) return status;
    const ParsedFile& parsed = *parsed_.emplace_back(std::move(file));
    loaded_.insert(stack_.back().id);
    if (auto status = load_drop_ins(top, parsed.context); !status) return status;

    stack_.pop_back();
    return ok_status();
  }

  // Every file parsed, vendor layer first, each layer in merge order.
  Status apply() {
    policy_.vendor_files = vendor_files_;
    for (Layer layer : {Layer::vendor, Layer::site}) {
      for (const auto& file : parsed_) {
        if (file->layer() != layer) continue;
        if (auto status = policy_parse::apply_file(file->root, file->context, policy_); !status) return status;
        policy_.files.push_back(file->context.path);
        note_origins(*file);
        if (file->root.contains("data_schema")) {
          (layer == Layer::vendor ? policy_.data_schema.declared_by_vendor : policy_.data_schema.declared_by_site) =
              true;
        }
      }
    }
    return ok_status();
  }

  // [data] against [data_schema], each key judged by its file's layer.
  Status check_data() const {
    return policy_parse::check_data(policy_, [&](const std::string& file) { return vendor_files_.contains(file); });
  }

  Policy& policy() { return policy_; }

  // The file `graft --policy` names: the vendor layer's when it is a
  // shipped policy itself, else the site layer's.
  Status load_top(const std::string& path) {
    Layer layer = is_shipped(path) ? Layer::vendor : Layer::site;
    if (layer == Layer::vendor) vendor_files_.insert(path);
    return load(path, "", layer);
  }

 private:
  struct Frame {
    std::string id;
    std::string path;
    std::string via;  // how the previous frame reached this one
    Layer layer;
  };

  struct ParsedFile {
    FileContext context;  // context.vendor_layer: its layer
    toml::table root;
    Layer layer() const { return context.vendor_layer ? Layer::vendor : Layer::site; }
  };

  // A site file's other value over an earlier site file's, for a key that
  // can weaken the node, is a finding; over a vendor value it is the point.
  void note_origins(const ParsedFile& file) {
    auto replaced = policy_parse::note_origins(file.root, file.context.path, policy_.key_origins);
    if (file.layer() != Layer::site) return;
    for (const auto& key : replaced) {
      const KeyOrigin& setting = policy_.key_origins.at(key);
      bool changed = setting.value != setting.replaced_value;
      if (changed && policy_parse::is_security_relevant(key) && !vendor_files_.contains(setting.replaced.file))
        policy_.overrides.push_back(SettingOverride{key, setting});
    }
  }

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

  // A file under a policy directory is a shipped policy's, however named
  // and however reached: both sides with their symlinks resolved.
  bool is_shipped(const std::string& path) const {
    std::string real = identity(path);
    return std::any_of(search_.policy_dirs.begin(), search_.policy_dirs.end(), [&](const std::string& dir) {
      std::string prefix = identity(absolute_path(dir));
      return real.starts_with(prefix.ends_with('/') ? prefix : prefix + "/");
    });
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
               const std::string& key, Layer layer) {
    std::string id = identity(path);
    bool on_stack = std::any_of(stack_.begin(), stack_.end(),
                                [&](const Frame& frame) { return frame.id == id; });
    if (on_stack) {
      return policy_parse::error_at(origin, key,
                                    "include loop: " + chain_to(id, via, path));
    }
    if (loaded_.contains(id)) return ok_status();
    if (layer == Layer::vendor) vendor_files_.insert(path);
    return load(path, via, layer);
  }

  Status load_includes(const TomlField& top, const FileContext& file) {
    auto includes = directive(top, "include");
    if (!includes) return includes.error();
    for (std::size_t i = 0; i < includes->size(); ++i) {
      const auto& include = (*includes)[i];
      std::string key = fmt::format("include[{}]", i);
      auto path = resolve_include(include, key, file);
      if (!path) return path.error();
      Layer layer = is_policy_name(include.value) || is_shipped(*path) ? Layer::vendor : stack_.back().layer;
      if (auto status = enter(*path, "includes", include.origin, key, layer); !status) return status;
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
        if (auto status = enter(path, "has drop-in", dir.origin, key, stack_.back().layer); !status) return status;
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
  std::vector<std::unique_ptr<ParsedFile>> parsed_;  // in merge order; TomlFields point into them
  std::set<std::string> vendor_files_;               // paths of the vendor layer's files
};

// Every vendor's request variables, unless a file set [audit] env (a site's
// own list replaces the vendors', as any array does): with two vendors, one
// [audit] table of theirs would keep only the last include's.
void add_vendor_audit_env(Policy& policy) {
  if (policy.key_origins.contains("audit.env")) return;
  for (const auto& name : policy.vendor_order)
    for (const auto& pattern : policy.vendors.at(name).audit_env)
      if (std::find(policy.audit_env.begin(), policy.audit_env.end(), pattern) == policy.audit_env.end())
        policy.audit_env.push_back(pattern);
}

}  // namespace

Result<Policy> load_policy(const std::string& path, const PolicySearch& search) {
  Loader loader(search);
  if (auto status = loader.load_top(absolute_path(path)); !status) return status.error();
  if (auto status = loader.apply(); !status) return status.error();
  if (auto status = loader.check_data(); !status) return status.error();
  if (auto status = policy_parse::validate_policy(loader.policy()); !status) return status.error();
  add_vendor_audit_env(loader.policy());
  return std::move(loader.policy());
}

}  // namespace graft
