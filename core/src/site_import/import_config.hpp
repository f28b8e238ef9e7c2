// SPDX-License-Identifier: Apache-2.0
// Applying an importer (importer.hpp) to a parsed foreign configuration file:
// every leaf key of the file gets exactly one outcome, so nothing the site
// wrote is dropped without a word.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "graft/base/error.hpp"
#include "site_import/importer.hpp"

namespace graft::site_import {

enum class Outcome {
  set,            // changed graft settings
  unchanged,      // needs no setting: graft (or the included policy) already behaves so
  inexpressible,  // graft has no equivalent; the reason says why
  unknown,        // the importer does not know the key
};

struct KeyImport {
  std::string key;    // dotted, as in the foreign file: "section.key"
  std::string value;  // as TOML spells it
  std::size_t line = 0;
  Outcome outcome = Outcome::unknown;
  std::string reason;                 // the case's why, none or unsupported text
  std::vector<std::string> settings;  // graft keys it changed (Outcome::set)
};

struct SiteImport {
  std::string include;         // the policy the site file includes
  std::vector<KeyImport> keys;  // every leaf key, in the file's line order
  toml::table settings;        // graft key ("requests.unprivileged") -> value
  std::map<std::string, std::vector<std::string>> sources;  // graft key -> foreign keys

  std::size_t count(Outcome outcome) const;
};

// `config` is the foreign file, parsed. An error means the importer itself is
// inconsistent (two keys setting one graft key to different values).
Result<SiteImport> import_config(const Importer& importer, const toml::table& config);

}  // namespace graft::site_import
