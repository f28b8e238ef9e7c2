-- imex_channels.lua: IMEX channel requests, read as the NVIDIA Container
-- Toolkit reads them: env NVIDIA_IMEX_CHANNELS (a comma list of channel
-- numbers, or `all`) and volume mounts of /dev/null on
-- <policy.data.volume_mount_prefix>/imex/<channel>. Volume mounts win over
-- the env, and each channel is honoured only where [requests] trusts it,
-- as for GPU requests. Each channel becomes node <channel> of the per-minor
-- device class policy.data.imex_channels.device_class.
--
-- Policy switches (policy.data.imex_channels): `ignore_requests` (the
-- toolkit's features.ignore-imex-channel-requests) and `privileged_only`.
-- Only applies to containers that visible_devices.lua decided to inject.

local values = require("request_values")
local split_commas, starts_with = values.split_commas, values.starts_with

local ENV_NAME = "NVIDIA_IMEX_CHANNELS"

local function mount_ids(req)
  local prefix = policy.data.volume_mount_prefix
  if type(prefix) ~= "string" or prefix == "" then return {} end
  prefix = prefix:gsub("/+$", "") .. "/imex/"
  local ids, seen = {}, {}
  for _, mount in ipairs(req.mounts) do
    local dest = (mount.destination or ""):gsub("/+$", "")
    if mount.source == "/dev/null" and starts_with(dest, prefix) and not seen[dest] then
      seen[dest] = true
      ids[#ids + 1] = {id = dest:sub(#prefix + 1), reason = "volume mount " .. dest}
    end
  end
  return ids
end

local function env_ids(req)
  local ids = {}
  for _, id in ipairs(split_commas(req.env[ENV_NAME] or "")) do
    if id ~= "" then ids[#ids + 1] = {id = id, reason = ENV_NAME .. "=" .. id} end
  end
  return ids
end

-- The first channel that asks and is trusted, or nil; untrusted ones are noted.
local function trusted_request(req, grant)
  local channels = {
    {trust = "volume-mounts", ids = mount_ids(req), what = "volume mounts"},
    {trust = "env", ids = env_ids(req), what = "env " .. ENV_NAME},
  }
  for _, ch in ipairs(channels) do
    if #ch.ids > 0 then
      if req.trusted[ch.trust] then return ch end
      grant:note("ignored IMEX channels requested by " .. ch.what .. " (not a trusted request channel)")
    end
  end
end

-- Grants one id: a channel number, or `all` (every channel node the host has).
local function grant_id(host, grant, class, item)
  if item.id == "all" then
    local minors = host.class_minors[class] or {}
    if #minors == 0 then grant:note("IMEX channels: " .. item.reason .. " but the host has no channel nodes") end
    for _, minor in ipairs(minors) do grant:add_node(class, minor, item.reason) end
    return
  end
  if not item.id:match("^%d+$") or #item.id > 7 or tonumber(item.id) >= 1048576 then
    return grant:deny("invalid IMEX channel '" .. item.id .. "' in " .. item.reason ..
                      ": expected a channel number (0 to 1048575) or 'all'")
  end
  grant:add_node(class, tonumber(item.id), item.reason)
end

rule("nvidia-imex-channels", "request", function(req, host, grant)
  if not grant:injecting("nvidia") then return end
  local request = trusted_request(req, grant)
  if not request then return end
  local settings = policy.data.imex_channels or {}
  if settings.ignore_requests then
    return grant:note("ignored IMEX channels requested by " .. request.what ..
                      " (imex_channels.ignore_requests is set)")
  end
  if settings.privileged_only and not req.privileged then
    return grant:note("ignored IMEX channels requested by " .. request.what ..
                      " in an unprivileged container (imex_channels.privileged_only is set)")
  end
  local class = settings.device_class or "imex-channel"
  for _, item in ipairs(request.ids) do grant_id(host, grant, class, item) end
end)
-- SPDX-License-Identifier: Apache-2.0
