#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Each plugin carries its own libstdc++ (GRAFT_STATIC_LIBS), so what of it a
# plugin links is mapped and relocated on every hook, six times over. fmt is
# built without its locale hooks (cmake/dependencies.cmake), and with them
# went libstdc++'s locale machinery: every facet of every character type, half
# of each plugin's code and most of its load time. This fails when something
# brings that machinery back into a plugin (a stream, std::regex, a locale).
# Usage: plugin-footprint-test.sh PLUGIN_DIR
set -euo pipefail
dir=$1
skip() { echo "graft-test skipped: $*"; exit 77; }
plugins=("$dir"/lib*.so)
[ -e "${plugins[0]}" ] || { echo "plugin-footprint-test: no plugins in $dir" >&2; exit 1; }
for plugin in "${plugins[@]}"; do
  name=$(basename "$plugin")
  if readelf -d "$plugin" | grep -q 'NEEDED.*libstdc++'; then
    skip "$name links the shared libstdc++ (GRAFT_STATIC_LIBS off): nothing of it is in the plugin"
  fi
  symbols=$(nm -C "$plugin" 2>/dev/null) || skip "$name has no symbol table (stripped)"
  if grep -q 'std::locale::classic()' <<<"$symbols"; then
    echo "plugin-footprint-test: $name links libstdc++'s locale machinery; what needs it:" >&2
    echo "  relink it with -Wl,-Map and look for locale_init.o" >&2
    exit 1
  fi
  echo "plugin-footprint-test: $name: $(size "$plugin" | awk 'NR == 2 { print $1 }') bytes of code, no locale machinery"
done
