#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README test command: installs dependencies, builds, and runs every test
# with ctest (the Debian package is built and tested from the Release tree);
# then rebuilds everything under AddressSanitizer and UndefinedBehaviorSanitizer
# (at -Og, see CMakeLists.txt) and runs every test again but those of
# packaging, manifests, build flags and the bench scripts.
set -euo pipefail
cd "$(dirname "$0")/../.."

bash tests/scripts/install-deps.sh --tests
jobs=$(nproc)
# ctest runs twice as many tests as CPUs: many of them wait (runc, podman,
# daemons, deadline tests sleeping until their deadline), not compute.
test_jobs=$((2 * jobs))
# Ninja for trees made here (a tree configured before keeps its generator):
# it compiles a target's files while the libraries it links are still being
# built, which make does not, and that keeps both CPUs busy.
export CMAKE_GENERATOR=Ninja

# /usr: the Debian package is made from this tree (tests/scripts/package-test.sh).
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGRAFT_WERROR=ON -DCMAKE_INSTALL_PREFIX=/usr \
  -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$test_jobs")

cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DGRAFT_SANITIZE=ON -DGRAFT_WERROR=ON >/dev/null
cmake --build build-sanitize -j"$jobs"
# The tests of packaging, manifests, build flags and the bench scripts check
# scripts and files, not graft's memory: the Release run has them.
(cd build-sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
   ctest --output-on-failure -j"$test_jobs" --label-exclude '^(package|kubernetes|build|bench|install)$')
