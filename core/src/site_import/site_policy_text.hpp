// SPDX-License-Identifier: Apache-2.0
// The site policy an import writes: commented TOML. Each setting is preceded
// by the foreign keys it came from and why; the keys that needed no setting,
// that graft cannot express, and that the importer did not know close the
// file as comments, so a reviewer sees every key of the original.
#pragma once

#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "site_import/import_config.hpp"

namespace graft::site_import {

struct ImportSource {
  std::string file;      // the foreign file read
  std::string importer;  // its name
  std::string description;
};

// `value` as TOML, always on one line: basic strings with every control
// character escaped, inline arrays and tables. It is written in comments, so
// no value may span lines (toml++'s own printer wraps long arrays and writes
// multi-line strings).
std::string one_line_toml(const toml::node& value);

// One part of a key as TOML spells it: bare when it may be, else a basic
// string with every control character escaped. Foreign key parts go into
// the file only so, so no key (one holding a newline) can start a line.
std::string toml_key(std::string_view key);

std::string site_policy_text(const SiteImport& result, const ImportSource& source);

// "N keys kept, M not expressible, U unknown to the importer"
std::string import_summary(const SiteImport& result);

}  // namespace graft::site_import
