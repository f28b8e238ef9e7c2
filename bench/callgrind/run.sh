#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Instruction counts: `graft plan` and `graft apply` (the hook's work, on a
# fresh target) under valgrind --tool=callgrind, children not traced (the
# ldconfig method's exec is outside the count). Ir totals do not depend on the
# machine's load, so a regression shows as a changed count. Valgrind 3.19 lacks
# openat2, pidfd_open and the mount API, which valgrind_shim.c stands in for
# (valgrind_helper.c, a native process, makes the mount calls); a run that
# needs another syscall valgrind does not know is reported as not measured,
# with the syscall. statmount and listmount are not stood in for: under
# valgrind the cgroup plugin takes its fallback and reads mountinfo, a few
# lines in the bench's namespace.
# Writes $RESULTS/callgrind.md: each run's total, the top functions by own Ir.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

dir=$BENCH_WORK/callgrind
rm -rf "$dir" && mkdir -p "$dir"
policy=$(make_host "$dir" 8)
write_policy=$(with_ldcache_method "$policy" write)
ldconfig_policy=$(with_ldcache_method "$policy" ldconfig)

grind() {  # NAME COMMAND...: callgrind.out.NAME, or NAME.unmeasured saying why not
  local name=$1
  shift
  rm -f "$dir/$name.unmeasured"
  GRAFT_VALGRIND_HELPER=$BENCH_BIN/valgrind_helper LD_PRELOAD=$BENCH_BIN/valgrind_shim.so \
    valgrind --tool=callgrind --trace-children=no --callgrind-out-file="$dir/callgrind.out.$name" "$@" >/dev/null 2>"$dir/$name.log" && return 0
  local unknown version
  version=$(valgrind --version | sed 's/valgrind-//')
  unknown=$({ grep -o 'unhandled amd64-linux syscall: [0-9]*' "$dir/$name.log" || true; } | awk '{ print $NF }' |
    sort -un |
    awk 'BEGIN { n[428] = "open_tree"; n[429] = "move_mount"; n[430] = "fsopen"; n[431] = "fsconfig"
                 n[432] = "fsmount"; n[434] = "pidfd_open"; n[437] = "openat2"; n[442] = "mount_setattr"
                 n[457] = "statmount"; n[458] = "listmount" }
         { printf "%s%s%s", sep, $1, ($1 in n) ? " (" n[$1] ")" : ""; sep = ", " }')
  # Valgrind answers ENOSYS to some syscalls on purpose, without a warning
  # (clone3, so that glibc falls back to clone): graft's error names the call,
  # followed by strerror(ENOSYS).
  local refused enosys
  enosys=$(python3 -c 'import errno, os; print(os.strerror(errno.ENOSYS))')
  refused=$({ grep -o "[^:(]*: $enosys" "$dir/$name.log" || true; } | tail -1 |
    sed "s/: $enosys\$//; s/^ *//")
  # graft's own error names the call that failed it; a syscall valgrind does
  # not know may also have been one graft has a fallback for (listmount).
  if [ -n "$refused" ]; then
    echo "valgrind $version cannot run it: it answers ENOSYS to graft's $refused"
  elif [ -n "$unknown" ]; then
    echo "valgrind $version cannot run it: it answers ENOSYS to syscall $unknown"
  else
    echo "it fails under valgrind $version: see $dir/$name.log"
  fi > "$dir/$name.unmeasured"
}

grind plan "$GRAFT" --policy "$write_policy" plan "${REQUEST_ENV[@]}"
# The same with 100 trivial admin rules in one file, and in 100 files: what
# each rule costs, and each file.
grind_rules() {  # NAME SETUP: `graft plan` with 100 admin rules laid out by SETUP (lib.sh)
  local rules_policy=${write_policy%.toml}-$1.toml
  cp "$write_policy" "$rules_policy"
  "$2" "$rules_policy" 100
  grind "plan-$1" "$GRAFT" --policy "$rules_policy" plan "${REQUEST_ENV[@]}"
}
if [ -z "${BENCH_SMOKE:-}" ]; then
  grind_rules one-file-100 with_rule_file
  grind_rules rules-100 with_rules
else
  echo "not run (smoke run)" > "$dir/plan-one-file-100.unmeasured"
  echo "not run (smoke run)" > "$dir/plan-rules-100.unmeasured"
fi
for method in write ldconfig; do
  [ -z "${BENCH_SMOKE:-}" ] || { echo "not run (smoke run)" > "$dir/apply-$method.unmeasured"; continue; }
  policy_var=${method}_policy
  pid=$(start_target "$dir/root")
  grind "apply-$method" "$GRAFT" --policy "${!policy_var}" apply --pid "$pid" --rootfs "$dir/root" \
    --trust-pid --id callgrind "${REQUEST_ENV[@]}"
  stop_target "$pid"
done

total() { callgrind_annotate "$dir/callgrind.out.$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'; }
# The first N lines of stdin, reading all of it (no SIGPIPE under pipefail).
first() { awk -v n="$1" 'NR <= n'; }
# Every function's own Ir as "IR|SHARE|FUNCTION|OBJECT", largest first; the
# source file is dropped and the function name cut to 80 characters.
functions() {  # NAME [--inclusive=yes]
  callgrind_annotate --threshold=100 ${2:-} "$dir/callgrind.out.$1" 2>/dev/null |
    awk '/file:function/ { on = 1; next } on && NF >= 2 && $1 ~ /^[0-9,]+$/ { print }' |
    sed -E 's/^ *([0-9,]+) +\( *([0-9.]+%)\) +[^:]*:(.*) \[([^]]*)\]$/\1|\2|\3|\4/; s/^ *([0-9,]+) +\( *([0-9.]+%)\) +[^:]*:(.*)$/\1|\2|\3|?/' |
    awk -F'|' -v OFS='|' '{ sub(".*/", "", $4); if ($4 == "?") $4 = "(not named)"; if (length($3) > 80) $3 = substr($3, 1, 77) "..."; print }'
}
# Own Ir summed per shared object: "SHARE|OBJECT", largest first.
by_object() {
  functions "$1" | awk -F'|' '{ ir = $1; gsub(",", "", ir); sum[$4] += ir; all += ir }
    END { for (o in sum) printf "%.1f%%|%s\n", 100 * sum[o] / all, o }' | sort -t'|' -k1,1 -gr
}
# inclusive_share NAME FUNCTION: FUNCTION's inclusive share of run NAME
# ("12.34"); a C++ FUNCTION is matched up to its parameters, a C one whole.
# A function the run never called counts 0.
inclusive_share() {
  functions "$1" --inclusive=yes |
    awk -F'|' -v f="$2" 'index($3, f "(") == 1 || $3 == f { sub("%", "", $2); share = $2; exit }
                         END { print share == "" ? 0 : share }'
}
# inclusive_ir NAME FUNCTION: FUNCTION's inclusive Ir in run NAME, as a number.
inclusive_ir() {
  functions "$1" --inclusive=yes |
    awk -F'|' -v f="$2" 'index($3, f "(") == 1 || $3 == f { gsub(",", "", $1); ir = $1; exit }
                         END { print ir == "" ? 0 : ir }'
}
object_share() { by_object "$1" | awk -F'|' -v o="$2" 'index($2, o) == 1 { sub("%", "", $1); print $1; exit }'; }

declare -A label=([plan]="\`graft plan\`"
                  [plan-one-file-100]="\`graft plan\`, 100 more (trivial) admin rules in one file"
                  [plan-rules-100]="\`graft plan\`, 100 more (trivial) admin rule files of one rule each"
                  [apply-write]="\`graft apply\`, ldcache write"
                  [apply-ldconfig]="\`graft apply\`, ldcache ldconfig (graft's own instructions only)")
{
  echo "valgrind --tool=callgrind, 8-GPU fake host, GPU 1, compute+utility; Ir = instructions executed."
  echo
  row "run" "Ir total"
  row "---" "---:"
  for name in plan plan-one-file-100 plan-rules-100 apply-write apply-ldconfig; do
    if [ -e "$dir/$name.unmeasured" ]; then
      row "${label[$name]}" "not measured: $(cat "$dir/$name.unmeasured")"
      continue
    fi
    row "${label[$name]}" "$(total "$name" | commas)"
    figure "ir_$name" "$(total "$name")"
  done
  for name in plan apply-write; do
    [ ! -e "$dir/$name.unmeasured" ] || continue
    echo
    echo "Where the instructions of ${label[$name]} go, by shared object (own Ir):"
    echo
    row "share" "object"
    row "---:" "---"
    by_object "$name" | first 8 | while IFS='|' read -r share object; do row "$share" "$object"; done
    echo
    echo "Top functions of ${label[$name]} by their own Ir:"
    echo
    row "Ir" "share" "function" "object"
    row "---:" "---:" "---" "---"
    functions "$name" | first 12 | while IFS='|' read -r ir share function object; do
      row "$ir" "$share" "\`$function\`" "$object"
    done
    echo
    echo "graft's own functions in ${label[$name]} by inclusive Ir (what they and their callees cost):"
    echo
    row "Ir" "share" "function"
    row "---:" "---:" "---"
    functions "$name" --inclusive=yes | awk -F'|' '$3 ~ /^graft::/' | first 10 |
      while IFS='|' read -r ir share function object; do row "$ir" "$share" "\`$function\`"; done
  done
} > "$RESULTS/callgrind.md"
if [ ! -e "$dir/plan.unmeasured" ] && [ ! -e "$dir/plan-one-file-100.unmeasured" ]; then
  figure ir_per_rule $(( ($(total plan-one-file-100) - $(total plan)) / 100 ))
  figure ir_parse_per_rule \
    $(( ($(inclusive_ir plan-one-file-100 luaY_parser) - $(inclusive_ir plan luaY_parser)) / 100 ))
fi
if [ ! -e "$dir/plan.unmeasured" ] && [ ! -e "$dir/plan-rules-100.unmeasured" ]; then
  figure ir_per_rule_file $(( ($(total plan-rules-100) - $(total plan)) / 100 ))
  figure ir_parse_per_rule_file \
    $(( ($(inclusive_ir plan-rules-100 luaY_parser) - $(inclusive_ir plan luaY_parser)) / 100 ))
  figure ir_env_per_rule_file $(( ($(inclusive_ir plan-rules-100 graft::rules::push_environment) -
                                   $(inclusive_ir plan graft::rules::push_environment)) / 100 ))
fi
if [ ! -e "$dir/apply-write.unmeasured" ]; then
  figure apply_share_plan "$(inclusive_share apply-write graft::plan_container)"
  figure apply_share_load_plugins "$(inclusive_share apply-write graft::load_plugins)"
  figure apply_share_plugins "$(inclusive_share apply-write graft::apply_plan)"
  figure apply_share_policy "$(inclusive_share apply-write graft::load_policy)"
fi
if [ ! -e "$dir/plan.unmeasured" ]; then
  figure plan_share_inventory "$(inclusive_share plan graft::discover_inventory)"
  figure plan_share_partition_caps "$(inclusive_share plan graft::read_partition_caps)"
  figure plan_share_rules "$(inclusive_share plan graft::evaluate_rules)"
  figure plan_share_rule_load "$(inclusive_share plan graft::rules::load_rule_chunk)"
  figure plan_share_policy "$(inclusive_share plan graft::load_policy)"
  figure plan_share_ldso "$(object_share plan ld-linux)"
  # Lua is linked into graft (GRAFT_STATIC_LIBS): its parser by function.
  figure plan_share_lua_parse "$(inclusive_share plan luaY_parser)"
  figure plan_share_lua_undump "$(inclusive_share plan luaU_undump)"
  figure plan_share_toml "$(inclusive_share plan toml::v3::ex::parse)"
  figure plan_share_version_pattern \
    "$(inclusive_share plan "graft::policy_parse::(anonymous namespace)::read_version_pattern")"
fi
