#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The build leaves a packager's flags alone: what is given as
# CMAKE_CXX_FLAGS_RELEASE reaches every compile, -Werror is there only when
# GRAFT_WERROR asks for it, and a configure that names no build type gets
# Release. Configures scratch trees only (no compiling).
# Usage: build-flags-test.sh SOURCE_DIR
set -euo pipefail
source_dir=$1
scratch=$(mktemp -d /tmp/graft-flags-XXXXXX)
trap 'rm -rf "$scratch"' EXIT

fail() { echo "build-flags-test: $*" >&2; exit 1; }

# The compile command of one file as the build would run it: the CLI's
# command_line.cpp, which compiles alone (the other engine and front-end files
# compile in unity batches).
compile_line() {
  python3 - "$1/compile_commands.json" <<'PY'
import json, sys
for entry in json.load(open(sys.argv[1])):
    if entry["file"].endswith("/frontends/graft/command_line.cpp"):
        print(entry["command"]); break
else:
    sys.exit("compile_commands.json has no entry for frontends/graft/command_line.cpp")
PY
}

cmake -S "$source_dir" -B "$scratch/packager" -DGRAFT_TESTS=OFF -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DGRAFT_PACKAGER_MARK" >/dev/null
line=$(compile_line "$scratch/packager")
[[ $line == *"-O1 -DGRAFT_PACKAGER_MARK"* ]] || fail "the packager's Release flags were replaced: $line"
[[ $line != *"-Werror"* ]] || fail "-Werror without GRAFT_WERROR: $line"

cmake -S "$source_dir" -B "$scratch/werror" -DGRAFT_TESTS=OFF -DGRAFT_WERROR=ON >/dev/null
line=$(compile_line "$scratch/werror")
[[ $line == *"-Werror"* ]] || fail "GRAFT_WERROR=ON does not add -Werror: $line"
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$scratch/werror/CMakeCache.txt" ||
  fail "a configure without a build type is not Release"
echo "build-flags-test: packager flags kept, -Werror only on request, Release by default"
