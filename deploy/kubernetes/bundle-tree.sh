#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Makes an installed graft tree (`cmake --install` into TREE) self-contained,
# for the node agent image: the host runs the tree's programs with its own
# libraries, so the tree carries the shared libraries graft and
# graft-runtime link against, found through RUNPATH (none but glibc's with
# GRAFT_STATIC_LIBS, the default; Lua, toml++, spdlog, fmt and libstdc++ with
# it off); only glibc (libc, libm, the loader) and libgcc_s come from
# the host, which must be at least as new as the image's. The plugins get a
# RUNPATH to the same directory. Run by the Containerfile and by
# tests/scripts/node-agent-test.sh. Needs ldd and patchelf.
# Usage: bundle-tree.sh TREE
set -eu
tree=${1:?usage: bundle-tree.sh TREE}
bundled=$tree/lib/bundled
mkdir -p "$bundled"
for program in "$tree"/bin/graft "$tree"/bin/graft-runtime; do
  for lib in $(ldd "$program" | awk '/=> \// {print $3}' |
               grep -v -E '/(libc|libm|libgcc_s|ld-linux[^/]*)\.so'); do
    [ -f "$bundled/${lib##*/}" ] || cp -L "$lib" "$bundled/"
  done
  patchelf --set-rpath '$ORIGIN/../lib/bundled' "$program"
done
for plugin in $(find "$tree/lib" -path '*/graft/plugins/*.so'); do
  patchelf --set-rpath "\$ORIGIN/$(realpath --relative-to="$(dirname "$plugin")" "$bundled")" "$plugin"
done
