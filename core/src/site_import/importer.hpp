// SPDX-License-Identifier: Apache-2.0
// An importer: how another tool's configuration file becomes a graft site
// policy. A vendor policy ships it as data (<policy dir>/<vendor>/import/
// <name>.toml, docs/migrating.md) and core runs it without knowing the
// vendor: this file finds and checks it, import_config.hpp applies it.
//
// The file maps each key of the foreign file (dotted, as "section.key") to
// cases tried in order. A case matches a value (`equals`, `prefix`, or any
// value), may reshape it (`strip_prefix`, `split`, `first`) and then either changes
// graft settings (`set`, `add`, `remove`, with `why`), or says no setting is
// needed (`none`), or that graft cannot express it (`unsupported`).
#pragma once

#include <string>
#include <vector>

#include <toml++/toml.h>

#include "graft/base/error.hpp"

namespace graft::site_import {

struct Importer {
  std::string name;          // what `graft policy import NAME` takes
  std::string path;          // the importer file
  std::string description;   // what it reads, for the generated header
  std::string default_file;  // the foreign file read when none is given
  std::string include;       // the shipped policy the generated file includes
  toml::table start;         // graft key -> the included policy's value, which add/remove edit
  toml::table keys;          // foreign key -> entry: a case, or `case = [cases]`
};

// The importer called `name` from the first of `policy_dirs` that ships one.
Result<Importer> find_importer(const std::string& name, const std::vector<std::string>& policy_dirs);

// Reads the importer file `path` and checks every field and case in it.
Result<Importer> read_importer(const std::string& name, const std::string& path);

// The cases of one entry: its `case` array, or the entry itself.
std::vector<const toml::table*> cases_of(const toml::table& entry);

}  // namespace graft::site_import
