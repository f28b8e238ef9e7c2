#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# core/ knows no GPU vendor: what a vendor's driver looks like is policy
# (policies/), how it is handed to a container is a plugin (plugins/). This
# fails on any file of core/ (documentation aside), or of policies/common/
# (the rule module every vendor policy shares), that names one, with the
# file and line of each mention.
# Usage: vendor-names-test.sh SOURCE_DIR
set -euo pipefail
cd "$1"
# Substrings for names no other word holds; whole words for short ones.
hits=$( { grep -rniE 'nvidia|cuda' core policies/common || true;
         grep -rniwE 'amd|amdgpu|rocm|kfd|hip' core policies/common || true; } |
        grep -vE '^[^:]*\.md:' || true)
if [ -n "$hits" ]; then
  echo "vendor-names-test: core/ or policies/common/ names a GPU vendor; vendor knowledge belongs in policies/<vendor>/:" >&2
  echo "$hits" >&2
  exit 1
fi
echo "vendor-names-test: core/ and policies/common/ name no GPU vendor ($(git ls-files core policies/common 2>/dev/null | wc -l) files)"
