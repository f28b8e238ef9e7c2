#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns `graft plan --format json` into the floor program's input: one
action per line, fields separated by tabs, only what the syscalls need, so the
C program (floor.c) reads its plan without a JSON library.
  bind    SOURCE TARGET ro|rw
  node    SOURCE TARGET          (a device node bound from the host)
  mknod   TARGET c|b MAJOR MINOR
  symlink LINK_TEXT TARGET
  cgroup  LINE                   (a devices.allow line, v1)
  procfs  SOURCE TARGET FILE...  (a tmpfs holding copies of these files)
  ldcache TARGET                 (the cache bytes come from a reference file)
Usage: flatten.py PLAN.json > ACTIONS.tsv"""
import json
import sys

plan = json.load(open(sys.argv[1]))
for action in plan["actions"]:
    kind, source, target = action["kind"], action.get("source", ""), action.get("target", "")
    options = action.get("options", [])
    if kind == "bind_mount":
        fields = ["bind", source, target, "ro" if "ro" in options else "rw"]
    elif kind == "device_node":
        device = action["device"]
        if "bind" in options:
            fields = ["node", source, target]
        else:
            fields = ["mknod", target, device["type"], str(device["major"]), str(device["minor"])]
    elif kind == "symlink":
        fields = ["symlink", source, target]
    elif kind == "cgroup_allow":
        device = action["device"]
        access = action.get("access", "rw")
        fields = ["cgroup", f'{device["type"]} {device["major"]}:{device["minor"]} {access}']
    elif kind == "procfs_mask":
        fields = ["procfs", source, target] + action.get("paths", [])
    elif kind == "ldcache_update":
        fields = ["ldcache", "/etc/ld.so.cache"]
    else:
        sys.exit(f"flatten.py: no floor for action kind {kind!r}")
    print("\t".join(fields))
