// SPDX-License-Identifier: Apache-2.0
// The bash and zsh completion scripts for a command tree (command_tree.hpp):
// commands by path, options (the root's under every command), the choices of
// an option or positional, and files for a value with no choices. Pure:
// the tree in, the script's text out.
#pragma once

#include <string>

#include "graft/engine/command_tree.hpp"

namespace graft {

// Sourced by bash (bash-completion loads it from completions/graft).
std::string bash_completion(const CompletionCommand& root);

// A zsh completion function file (`#compdef graft`, autoloaded from fpath as _graft).
std::string zsh_completion(const CompletionCommand& root);

}  // namespace graft
