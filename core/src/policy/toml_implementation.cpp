// SPDX-License-Identifier: Apache-2.0
// toml++'s parser, compiled once into graft_core when toml++ is used
// header-only (GRAFT_STATIC_LIBS, cmake/dependencies.cmake). With the shared
// library, TOML_SHARED_LIB is set and this file compiles to nothing.
#if defined(TOML_HEADER_ONLY) && !TOML_HEADER_ONLY && !defined(TOML_SHARED_LIB)
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
#endif
