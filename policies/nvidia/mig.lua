-- mig.lua: MIG management requests, NVIDIA_MIG_CONFIG_DEVICES and
-- NVIDIA_MIG_MONITOR_DEVICES (toolkit §2.6, libnvidia-container §6):
--   only `all` is accepted; only privileged containers may ask (the hook
--   refuses them otherwise); they cannot be combined with selecting specific
--   MIG partitions. Each grants the policy extra of the same purpose
--   ("mig-config", "mig-monitor"), which lets the container create, destroy
--   or watch instances on every visible MIG-capable GPU.
-- Only applies to containers that visible_devices.lua decided to inject.

local trim = require("request_values").trim

local REQUESTS = {
  {env = "NVIDIA_MIG_CONFIG_DEVICES", extra = "mig-config"},
  {env = "NVIDIA_MIG_MONITOR_DEVICES", extra = "mig-monitor"},
}

-- "0:1, 2:0" (<gpu>:<partition>) for the partitions already granted, or nil.
local function granted_partitions(grant)
  local names = {}
  for _, d in ipairs(grant:devices()) do
    if d.partition ~= nil then
      names[#names + 1] = d.gpu .. ":" .. d.partition
    end
  end
  if #names == 0 then return nil end
  return table.concat(names, ", ")
end

rule("nvidia-mig-management", "request", function(req, host, grant)
  if not grant:injecting("nvidia") then return end
  for _, r in ipairs(REQUESTS) do
    local value = trim(req.env[r.env] or "")
    if value ~= "" then
      if not req.privileged then
        return grant:deny("cannot set " .. r.env .. " in an unprivileged container" ..
                          " (MIG management needs CAP_SYS_ADMIN)")
      end
      if value ~= "all" then
        return grant:deny("invalid " .. r.env .. " '" .. value .. "': only 'all' is supported")
      end
      local partitions = granted_partitions(grant)
      if partitions then
        return grant:deny(r.env .. "=all cannot be combined with selecting MIG devices (" ..
                          partitions .. ")")
      end
      grant:note(r.extra .. " requested by env " .. r.env .. "=all (privileged)")
      grant:add_extra(r.extra, r.env .. "=all")
    end
  end
end)
-- SPDX-License-Identifier: Apache-2.0
