// SPDX-License-Identifier: Apache-2.0
// How each real runtime reads its command line, as far as graft-runtime
// must know it to find the command and, for a command that creates a
// container, the spec it will run: the options before the command, the
// options of create, run and restore, which of them take a value, and the
// syntax of the runtime's option parser. runc parses with Go's flag package
// (through urfave/cli), crun with glibc's argp (getopt_long); the two read
// the same argument differently (`-bDIR`, `-bundle`, `--bund`), so the
// grammar is chosen by which runtime the policy names. Pure data.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace graft::runtime {

enum class OptionSyntax {
  // runc: `-name` or `--name` alike, the value after `=` or as the next
  // argument; a one-letter name is just a short name (`-b DIR`, `-b=DIR`);
  // no abbreviations, no value attached to a letter.
  go_flag,
  // crun: `--name`, `--name=VALUE` or `--name VALUE`, and letters that may
  // be grouped, the last taking the rest of its argument or the next as
  // its value (`-dbDIR`, `-b DIR`, `-bundle` = `-b undle`). getopt_long
  // also takes any unambiguous abbreviation (`--bund`): which ones are
  // unambiguous depends on the crun version's whole option table, so
  // graft-runtime does not read them.
  getopt_long,
  // a runtime graft-runtime does not know: runc's options, in the forms
  // every such parser reads alike only: `--name`, `--name=VALUE`,
  // `--name VALUE`, `-x`, `-x VALUE`.
  exact,
};

enum class OptionRole {
  other,
  bundle,  // the bundle directory
  config,  // crun: the spec file, instead of <bundle>/config.json
  help,    // the runtime prints its help and does nothing else
};

struct RuntimeOption {
  std::string_view name;  // the long name without dashes; "" when it has a letter only
  char letter = 0;        // the short name; 0 when none
  bool takes_value = false;
  OptionRole role = OptionRole::other;
};

struct RuntimeGrammar {
  std::string_view runtime;  // "runc", "crun", or "the real runtime", for messages
  OptionSyntax syntax;
  std::span<const RuntimeOption> global;  // the options before the command
  std::span<const RuntimeOption> create;
  std::span<const RuntimeOption> run;
  std::span<const RuntimeOption> restore;
};

// The grammar of the runtime at `path` (as find_real_runtime found it), by
// the name of the file it is after symlinks: runc (also `runc.amd64`,
// `runc-1.2`), crun (also `crun-wasm`, krun), else `exact` with runc's options.
const RuntimeGrammar& runtime_grammar(const std::string& path);

// runc's, for the default runtime when the policy does not load.
const RuntimeGrammar& runc_grammar();

// The options of `command` when it creates a container (create, run,
// restore); an empty span otherwise.
std::span<const RuntimeOption> creating_command_options(const RuntimeGrammar& grammar,
                                                        std::string_view command);

// Whether `command` creates a container from a bundle: create, run, restore.
bool creates_container(std::string_view command);

}  // namespace graft::runtime
