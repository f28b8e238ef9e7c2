// SPDX-License-Identifier: Apache-2.0
// The import as one call: the steps of `graft policy import`, each error
// naming the file it is about.
#include "site_import/import_site_policy.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "graft/base/bounded_read.hpp"
#include "graft/base/unique_fd.hpp"
#include "graft/base/write_all.hpp"
#include "policy/nesting.hpp"
#include "policy/toml_field.hpp"
#include "rules/check.hpp"
#include "rules/sample_check.hpp"
#include "site_import/site_policy_text.hpp"

namespace graft::site_import {
namespace {

// A configuration file is a few kilobytes; a megabyte is no configuration.
constexpr std::size_t kConfigLimit = 1u << 20;

Result<toml::table> read_config(const std::string& file) {
  auto text = read_file(file, kConfigLimit, O_NONBLOCK);
  if (!text) return text.error();
  // toml++ recurses once per key part: a 60,000-part key would overflow
  // the stack (policy/nesting.hpp), so keys are bounded before it parses.
  if (auto bounded = policy_parse::check_key_depth(*text, file); !bounded) return bounded.error();
  try {
    return toml::parse(*text, std::string_view(file));
  } catch (const toml::parse_error& e) {
    return make_error("{}: {}", policy_parse::origin_of(e.source(), file).full(), e.description());
  }
}

// A temp file removed when it goes out of scope.
class TempPolicyFile {
 public:
  Status create(const std::string& text) {
    path_ = (std::filesystem::temp_directory_path() / "graft-import-XXXXXX.toml").string();
    UniqueFd fd(::mkstemps(path_.data(), 5));
    if (fd.get() < 0) {
      std::string failed = path_;
      path_.clear();
      return make_sys_error(errno, "creating {}", failed);
    }
    if (auto status = write_all(fd.get(), text, path_); !status) return status;
    return ok_status();
  }
  ~TempPolicyFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

Status checked_policy(const std::string& path, const PolicySearch& search) {
  auto policy = load_policy(path, search);
  if (!policy) return policy.error();
  if (auto status = check_rule_files(*policy); !status) return status;
  if (auto samples = check_rules_on_samples(*policy); !samples) return samples.error();
  return ok_status();
}

}  // namespace

Status check_site_policy_text(const std::string& text, const PolicySearch& search) {
  TempPolicyFile file;
  if (auto status = file.create(text); !status) return status;
  Status checked = checked_policy(file.path(), search);
  if (checked) return checked;
  // The temp file is gone when the message is read: name the text instead.
  std::string message = checked.error().message;
  for (auto at = message.find(file.path()); at != std::string::npos; at = message.find(file.path()))
    message.replace(at, file.path().size(), "<generated policy>");
  return Error{message};
}

Result<ImportedPolicy> import_site_policy(const std::string& importer_name, const std::string& file,
                                          const PolicySearch& search) {
  auto importer = find_importer(importer_name, search.policy_dirs);
  if (!importer) return importer.error();
  std::string source = file.empty() ? importer->default_file : file;
  if (source.empty()) return make_error("importer '{}' names no default file: give the file to import", importer_name);
  auto config = read_config(source);
  if (!config) return config.error();
  auto result = import_config(*importer, *config);
  if (!result) return result.error();
  ImportedPolicy imported{.source = source, .result = std::move(*result)};
  imported.text = site_policy_text(imported.result, {source, importer->name, importer->description});
  imported.summary = import_summary(imported.result);
  if (auto status = check_site_policy_text(imported.text, search); !status)
    return status.error().context(fmt::format("the policy imported from {} does not pass the check "
                                              "(importer {})", source, importer->path));
  return imported;
}

}  // namespace graft::site_import
