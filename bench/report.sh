#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Writes docs/performance.md and the scaling plot from one run's results
# (bench/run.sh calls it): the machine and its load, the targets with what was
# measured, each benchmark's table, and what dominates, in sentences built
# from the run's own figures (callgrind shares, audit phases).
#   bench/report.sh RESULTS_DIR OUT.md OUT.png
set -euo pipefail
source "$(dirname "$0")/lib.sh"
results=$1 out=$2 png=$3
source "$results/run.env"

get() { awk -F'\t' -v k="$1" '$1 == k { v = $2 } END { print (v == "" ? "nan" : v) }' "$results/figures.tsv"; }
# met VALUE OP LIMIT: "yes" or "no".
met() { awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN {
  if (v == "nan") { print "not measured"; exit }
  ok = (op == "<=") ? v <= l : v < l; print ok ? "yes" : "**no**" }'; }

gpus_per_action() {  # CASE -> plugin ms per applied action
  awk -v c="$1" '$1 == c { printf "%.3f", $6 / $2 }' "$results/scaling.dat"
}
scaling() { awk -v c="$1" -v col="$2" '$1 == c { print $col }' "$results/scaling.dat"; }

gnuplot <<GP
set terminal pngcairo size 1000,560 font "sans,10"
set output "$png"
set title "graft apply, one container: medians of $rounds rounds ($mode run, $started)"
set ylabel "milliseconds"
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.6
set key top left
set xtics rotate by -30
set grid ytics
plot "$results/scaling.dat" using 4:xtic(1) title "inventory", \
     "" using 5 title "rules", \
     "" using 6 title "plugins (load, prepare, enter, apply, finish)", \
     "" using 0:3 with linespoints lw 2 pt 7 title "whole process"
GP

machine() {
  local cpu memory cgroup=v2
  cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
  memory=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
  [ ! -d /sys/fs/cgroup/devices ] || cgroup=v1
  echo "Machine: $cpu, $(nproc) CPUs online, $memory, kernel $(uname -r), cgroup $cgroup."
}

per_action_1=$(gpus_per_action gpus-1)
per_action_64=$(gpus_per_action gpus-64)
linear=$(ratio "$per_action_64" "$per_action_1")
# What 100 admin rules add is read from the rules phase, where they are loaded
# and run: the whole process's medians move by more than that from round to
# round (one run measured 100 rule files faster than 1). The target counts
# rules (100 in one file); 100 files of one rule each are shown beside it.
rules_phase_added() {  # CASE -> what CASE adds to the rules phase of 1 rule, ms
  awk -v a="$(scaling "$1" 5)" -v b="$(scaling rules-1 5)" 'BEGIN { printf "%.2f", a - b }'
}
# A sentence on whether the plan's syscalls alone (floor.c as the hook) come
# within the create target in this run.
floor_against_target() {
  awk -v floor="$(get create_ratio_floor)" 'BEGIN {
    if (floor == "nan") print "floor.c was not run as a hook here (cgroup v2)."
    else if (floor + 0 <= 1.15) print "The target is within reach of the syscalls (floor.c " floor "×)."
    else print "In this run even the plan'"'"'s syscalls alone (floor.c, " floor "×) come to more than the target."
  }'
}

# A sentence comparing the CDI route and the shim's declarative mode with the hook.
routes_against_hook() {
  awk -v hook="$(get create_added_write)" -v edited="$(get create_added_edited)" \
      -v shim="$(get create_added_shim)" 'BEGIN {
    if (edited == "nan" || shim == "nan") print "(Not measured in this run.)"
    else if (edited + 0 > hook + 0 && shim + 0 > hook + 0)
      print "Both add more than the hook: the hook, graft'"'"'s default, is also its fastest route here."
    else print "One of them adds no more than the hook in this run: compare the middle halves in the table."
  }'
}
rules_added=$(rules_phase_added one-file-100)
with_rules=$(plus "$(get whole_rules_1_ms)" "$rules_added")
flat=$(ratio "$with_rules" "$(get whole_rules_1_ms)")
files_added=$(rules_phase_added rules-100)
with_files=$(plus "$(get whole_rules_1_ms)" "$files_added")
flat_files=$(ratio "$with_files" "$(get whole_rules_1_ms)")
{
  cat <<MD
# Performance

Written by \`bench/run.sh\` ($mode run, $rounds rounds per figure) on $started,
commit $commit. Nothing here is edited by hand: run the command again to
refresh it. How each figure is taken is in the script named in its section.

$(machine)
Load average (1, 5, 15 min) at the start: $load_start; at the end: $load_end.
A load above the CPU count means the timings share the CPUs with other work:
read ratios taken from interleaved rounds rather than absolute milliseconds,
and the callgrind counts, which the load does not change.

## Targets (issue 14)

| target | measured | met? |
|---|---|---|
| container create with the hook ≤ 1.15× plain runc | $(get create_ratio_write)× (ldcache write), $(get create_ratio_ldconfig)× (ldconfig); a hook that does nothing: $(get create_ratio_noop)×; floor.c as the hook, doing only the plan's syscalls: $(get create_ratio_floor)×; the rootfs's upper layer on this machine's disk instead of a tmpfs: $(get create_ratio_write_disk)×; graft's other routes: graft-runtime in declarative mode $(get create_ratio_shim)×, config.json already edited as a CDI-aware engine edits it $(get create_ratio_edited)× | $(met "$(get create_ratio_write)" "<=" 1.15) |
| whole-process \`graft plan\` ≤ 2× \`/bin/true\` | $(get plan_ratio_true)× | $(met "$(get plan_ratio_true)" "<=" 2) |
| apply ≤ 1.3× the floor (plugin phases against floor.c's syscalls) | $(get apply_ratio_write)× (ldcache write), $(get apply_ratio_ldconfig)× (ldconfig); the apply phase alone $(get apply_phase_ratio_write)× and $(get apply_phase_ratio_ldconfig)× | $(met "$(get apply_ratio_write)" "<=" 1.3) |
| cost linear in mounts (plugin ms per applied action, 64 GPUs against 1; met when ≤ 1.5) | $per_action_1 → $per_action_64 ms, $linear× | $(met "$linear" "<=" 1.5) |
| nearly flat in the number of rules (whole process with 1 admin rule, and with what 100 rules in one file add to the rules phase; met when ≤ 1.1) | $(get whole_rules_1_ms) → $with_rules ms (+$rules_added ms), $flat×; the same 100 rules in 100 files: $with_files ms (+$files_added ms), $flat_files× | in rules: $(met "$flat" "<=" 1.1); in rule files: $(met "$flat_files" "<=" 1.1) |
| peak RSS < 16 MiB (\`graft plan\`, \`graft hook\`) | $(get peak_rss_mib) MiB | $(met "$(get peak_rss_mib)" "<" 16) |

## What dominates

From this run's callgrind profile of \`graft plan\` (instructions, so the load
does not enter): loading the site policy is $(get plan_share_policy)% of them,
of which toml++ parsing its two files (the bench's site file and the shipped
vendor policy, that one without its comment lines) $(get plan_share_toml)% and compiling
\`version_pattern\` $(get plan_share_version_pattern)%;
discovering the inventory is $(get plan_share_inventory)%, and reading the MIG partition
capabilities alone $(get plan_share_partition_caps)% (the driver lists every possible
partition of 32 GPUs; the 8 GPUs here keep 1,082 of its 4,322 lines, even on a
host without MIG instances); evaluating the rules is $(get plan_share_rules)%, of which
loading the rule files' chunks $(get plan_share_rule_load)% (Lua reading the shipped
rules' bytecode $(get plan_share_lua_undump)%, its parser $(get plan_share_lua_parse)%:
no admin rule file here). The dynamic linker runs $(get plan_share_ldso)% (graft
links everything but glibc statically: \`GRAFT_STATIC_LIBS\`,
cmake/dependencies.cmake). In wall time, the scaling
table's row for 1 admin rule splits one \`graft apply\` of
$(scaling rules-1 3) ms into inventory $(scaling rules-1 4) ms, rules
$(scaling rules-1 5) ms and plugins $(scaling rules-1 6) ms; the rest of the
whole process lies outside these phases (start-up, reading the policy, planning,
the audit record, exit): \`graft version\`, which
loads nothing, takes $(get version_ms) ms against /bin/true's $(get true_ms) ms.
With 1, 10 and 100 admin rules in one file the rules phase takes $(scaling rules-1 5),
$(scaling one-file-10 5) and $(scaling one-file-100 5) ms: each trivial rule adds
$(get ir_per_rule | commas) instructions to \`graft plan\`, of which Lua's parser runs
$(get ir_parse_per_rule | commas) (the rest is registering it, and calling it once).
Across 1, 10 and 100 admin rule files of one rule each it takes $(scaling rules-1 5),
$(scaling rules-10 5) and $(scaling rules-100 5) ms. Each file, even a
three-line one, adds $(get ir_per_rule_file | commas) instructions, of which
Lua's parser runs $(get ir_parse_per_rule_file | commas) (setting up for each chunk, and
its tables of names, cost more than the three lines) and making the file's own \`_ENV\`
$(get ir_env_per_rule_file | commas), plus reading the file (an open, a stat, two reads and
a close): what a file costs beyond its rules.

The hook's own work, \`graft apply\` with the default ldcache write, runs
$(get ir_apply-write | commas) instructions: loading the site policy $(get apply_share_policy)%,
planning (inventory and rules) $(get apply_share_plan)%, loading the six plugins
$(get apply_share_load_plugins)% and the plugins' prepare, enter, apply and finish
$(get apply_share_plugins)%; the rest is start-up, the audit record and exit. The
plugins' share is small in instructions and large in time: it is syscalls.

Against the floor, graft's apply phase alone takes $(get apply_ms_write) ms to the
floor's $(get floor_ms) ms; its plugin phases together take $(get plugin_ms_write) ms,
so prepare, enter and finish hold the difference. With the ldconfig method the
apply phase takes $(get apply_ms_ldconfig) ms (the two differ only in the ldcache method).

The hook adds $(get create_added_write) ms to a container create (ldcache write).
floor.c as the hook, making the plan's syscalls in the container's rootfs and
nothing else, adds $(get create_added_floor) ms ($(get create_ratio_floor)× plain runc), and a hook that
does nothing (\`/bin/true\`) $(get create_added_noop) ms. Plain runc's own creates spread over
$(get create_plain_middle_half) ms (their middle half), so each of these is the median of a row's
per-round differences from plain runc, and even that moves by about a millisecond from
one run to the next.
$(floor_against_target) What graft adds beyond the syscalls is
its own process, $(get hook_ms) ms whole in the whole-process table. Inside the create, its audited phases take
$(get create_phase_phases_ms) ms: inventory $(get create_phase_inventory_ms) ms,
rules $(get create_phase_rules_ms) ms, loading the plugins $(get create_phase_load_plugins_ms) ms,
prepare $(get create_phase_prepare_ms) ms and apply $(get create_phase_apply_ms) ms. With the
container's upper layer on this machine's disk instead of a tmpfs, apply takes
$(get create_phase_disk_apply_ms) ms: making the mountpoint files, directories and symlinks
is then mostly the kernel's, and this disk is ext4 without a journal, where
allocating an inode steps over every inode freed in the last minute or so
(\`recently_deleted()\` in fs/ext4/ialloc.c; most of the kernel's time in the hook's
file, directory and symlink creations in a \`perf record\` of it). A benchmark
that creates and deletes hundreds of files a second pays that on every one; a
host starting containers at a usual rate on a journaled filesystem does not.
The tmpfs rows compare with the floor, whose root is a tmpfs too.

graft's two other routes hand the binds, nodes and device rules to runc:
with \`config.json\` already carrying graft's edits, as a CDI-aware engine
writes them from \`graft cdi generate\`'s spec, the create adds
$(get create_added_edited) ms, and runc still runs \`graft cdi-hook\` for the links, the ld
cache and the procfs mask; through graft-runtime in declarative mode, which
also plans before handing over to runc, it adds $(get create_added_shim) ms.
$(routes_against_hook)

## What was cut, and what was left

- **Start-up.** graft and its plugins link libstdc++, Lua and yaml-cpp from
  Debian's static archives, compile fmt's and toml++'s library parts once
  from their headers, use spdlog header-only, and link with \`--gc-sections\`
  (\`GRAFT_STATIC_LIBS\`, on by default; cmake/dependencies.cmake). A graft
  process maps only glibc: \`graft version\` takes $(get version_ms) ms here, and
  the dynamic linker runs $(get plan_share_ldso)% of \`graft plan\`'s instructions.
  Each plugin carries its own libstdc++ (no C++ object crosses the plugin
  ABI) and frees its buffers when unloaded, so repeated loads do not grow the
  heap (tests/unit/apply_leak_test.cpp). fmt's part is built without its
  locale hooks (\`FMT_STATIC_THOUSANDS_SEPARATOR\`; graft formats nothing by
  locale), and with them went libstdc++'s locale machinery, every facet of
  every character type, from each plugin: half its code (830 KB to 424 KB
  for the libraries plugin), and loading the six plugins took 0.65–0.70 ms
  instead of 0.95 ms (medians of 40 \`graft apply\` runs each, before and
  after). A test fails if a plugin links that machinery again
  (tests/scripts/plugin-footprint-test.sh).
- **Inventory: cheaper discovery, no cache.** Discovery keeps only the MIG
  capability minors of the host's own GPUs (the driver lists 32 GPUs'
  worth), in one buffer of names with a sorted index rather than a map node
  and a string each (inventory/partition_caps.hpp: building and freeing that
  map had been a sixth of \`graft plan\`), merged from the listing's sorted
  runs rather than put in place name by name (past ten GPUs the driver's
  order breaks, "gpu10" before "gpu2": a 64-GPU \`graft plan\` ran 16.2 M
  instructions, now 11.7 M with the next change), judges each line by the
  GPU prefix of the line before when it starts the same (the driver lists
  each GPU's names together), compiles the version pattern once with the policy, and resolves
  each directory of the driver root once (paths/root_links.hpp). It reads
  the driver root's ld.so.cache in one pass, copying out only the entries
  whose name starts with a library prefix of the capability sets
  (inventory/prefix_index.hpp): each prefix had scanned the whole cache, and
  a GPU host's cache lists one to three thousand libraries. With 1,500 other
  libraries in it, the scaling table's inventory phase takes
  $(scaling cache-1500 4) ms against $(scaling libs-10 4) ms for the same host without them. Likewise the
  cgroup plugin no longer reads /proc/self/mountinfo, whose every line the
  kernel formats (a node running many containers has thousands; one read of
  it took 2.4 ms with 2,000 other mounts here): it asks the kernel for the
  cgroup mounts by id (statx's mount id, statmount(2) and listmount(2), Linux
  6.8; plugins/common/mount_by_id.hpp) and reads mountinfo only where the
  kernel cannot say. With 2,000 other mounts the plugins take
  $(scaling mounts-2000 6) ms against $(scaling libs-10 6) ms without them. What is left,
  $(scaling rules-1 4) ms of one \`graft apply\` here, is a few procfs files, the
  driver root's ld.so.cache and a stat per library. A cache under /run/graft
  would still have to read and validate itself on every start (the driver
  version file and the ld cache's identity) and could save at most that
  phase, so it was not built: a second source of truth is a tampering and
  staleness risk the figures do not justify.
- **Rules.** Each rule file's \`_ENV\` is made at its final size from a
  flattened template, without the copies of \`string\`, \`table\`, \`math\` or
  \`utf8\` whose names the file's text never spells (nor \`_G\` or \`_ENV\`: then
  it cannot reach them; sandbox/environment.cpp, ReachableGlobals), and the rule
  files' directories are walked and checked once per evaluation
  (trust/trusted_file.hpp, TrustedDirs). A file whose text is exactly that of
  a shipped rule file or module loads from the bytecode the build compiled
  from that text (sandbox/precompiled_chunks.hpp, core/tools/precompile_rules.cpp),
  with the file's own chunk name put back into the dump so that messages and
  line information are those of the text: Lua's parser had been a quarter of
  \`graft plan\`. Lua's blocks of up to 256 bytes (strings, table parts,
  closures, the parser's buffers) come from slabs with a free list per size
  class (sandbox/block_pool.hpp) rather than one malloc and free each: 4.6% of
  \`graft plan\`, and 12% of what each admin rule file adds. An admin's own
  rule file is still compiled from its text: what is left per file is reading
  it, Lua compiling it and running its main chunk. A rule's name is checked
  against those registered before it in a hash table rather than one by one
  (rules/rule_book.hpp): 100 rules had made 4,950 comparisons, 1,000 would
  have made half a million.
- **Policy.** \`version_pattern\` is compiled with regex traits whose
  primary collation key is cheap in the classic locale
  (policy/version_regex.hpp): libstdc++ asks for that key of all 256
  characters for each bracket expression (\`\\s\`, \`[0-9]\`), through the
  locale's facets and two allocations each, which was a tenth of
  \`graft plan\`; the key is the same, character for character. A policy
  file whose text is exactly a shipped one (the vendor policies, the example
  site policy as installed) is parsed without its comment lines, which
  toml++ reads byte by byte like values and which are most of those files:
  the build empties them, keeping every newline, and checks with toml++ that
  the result is the same document with every node where it was
  (policy/uncommented_toml.hpp, core/tools/uncomment_toml.cpp).
- **Hook.** The plugins are loaded under one installation of the crash
  handlers and one checked walk of their directory (they had one each per
  load, init and destroy: 192 rt_sigaction calls and 221 readlinks became 32
  and 191). The audit record renders the plan's decisions, not the whole plan
  document; a plugin call's running note, one per call, skips the JSON encoder
  when its text is plain ASCII; a directory made in the container root is
  handed back through the fd it was settled with instead of being reopened.
  A plugin keeps the container directories it has resolved and checked
  across its consecutive actions (plugins/common/checked_dirs.hpp): the
  second library in a directory costs a dup, not an openat2, the walk from
  the root and two statx (one \`graft apply\` here: 1,769 syscalls became
  1,521). Likewise the procfs plugin makes each mountpoint inside its mask
  from the directories the previous one made rather than from the mask's
  root: a MIG host's capability files share them (56 instances: 520 mkdirat
  became 149, and the prepare phase took about 4.7 ms instead of 6 to 10).
  A symlink with nothing in its way is made at its name rather than
  at a temporary one renamed over it. Of the bundle's config.json, only the
  sections graft reads are built into the parsed document
  (request/request_from_bundle.cpp): a container engine's config carries a
  seccomp profile of hundreds of strings, and for a 14 KB one that took the
  parse from 2.2 M instructions to 1.8 M; nlohmann's lexer is the rest.
- **Left as it is.** toml++ parsing the policy and reading the partition
  capabilities (every line of the driver's table is looked at) are now the
  largest parts of \`graft plan\`. The site's own policy is text an admin
  edits, so it is parsed on every start; a parsed copy kept elsewhere would
  be a second source of truth, as a cache of the inventory would. The
  capabilities are data the rules and the \`all_partition_caps\` extra read
  whole. For admin rule files, Lua's parser and each file's own
  \`_ENV\` are most of what a file costs, which is why the cost is not
  flat in their number. Mapping six plugins, each about 0.5 MiB with its own
  libstdc++, is most of load_plugins (nearly all of each dlopen is the
  kernel mapping the file and faulting it in). (CLI11 builds only the given
  command's options: building all of them was a twentieth of \`graft plan\`.)
  Against \`/bin/true\`, \`graft plan\` cannot come within 2× while it reads
  and checks a 16 KB policy, a driver's procfs and ld.so.cache and runs the
  rules, all of which it must do on each start to stay correct. Nor can a
  container create with the hook come within 1.15× of plain runc here: that
  leaves the hook $(awk -v p="$(get create_plain_ms)" 'BEGIN { printf "%.2f", 0.15 * p }') ms, less than one whole
  \`graft hook\` process ($(get hook_ms) ms) takes. A hook that is nothing
  but the plan's syscalls (floor.c) comes to $(get create_ratio_floor)×; an engine that
  reads a policy, discovers the host and runs rules before making them
  has what is left of the budget for all of that and its own start-up:
  $(awk -v p="$(get create_plain_ms)" -v f="$(get create_added_floor)" 'BEGIN {
    left = 0.15 * p - f
    if (left > 0) printf "%.2f ms", left; else printf "nothing, in this run" }').

## Floor: apply against its syscalls (bench/floor.sh)

$(cat "$results/floor.md")

## Container create (bench/create.sh)

$(cat "$results/create.md")

## Whole process (bench/process.sh)

$(cat "$results/process.md")

## Scaling (bench/scaling.sh)

$(cat "$results/scaling.md")

![graft apply cost per case](performance-scaling.png)

## Instruction counts (bench/callgrind/run.sh)

$(cat "$results/callgrind.md")
MD
} > "$out"
