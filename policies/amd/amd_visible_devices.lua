-- SPDX-License-Identifier: Apache-2.0
-- amd_visible_devices.lua: which AMD GPUs a container asked for, read the
-- way AMD's container toolkit reads AMD_VISIBLE_DEVICES, over the same
-- request channels as the nvidia policy.
--
-- Channels, in precedence order: CDI annotations `cdi.k8s.io/*` naming
-- `amd.com/gpu=<id>`, volume mounts of /dev/null under
-- policy.data.amd.volume_mount_prefix, env AMD_VISIBLE_DEVICES. The first
-- channel that is present and trusted decides; a present but untrusted one
-- is ignored with a note.
--
-- Values (amd-ctk's gpu-tracker): `all` (any case), `none` (a GPU
-- container without GPUs: /dev/kfd only), `void` (not a GPU container), or
-- a comma list of indices (`0`), index ranges (`0-3`), and unique ids
-- (`0x1c2d3e4f5a6b7c00`, or the bare hex when longer than 8 digits).
-- Indices count host.gpus in render-minor order, as amd-ctk counts them.

local values = require("request_values")
local split_commas, starts_with = values.split_commas, values.starts_with

local VENDOR = "amd"  -- [vendor.amd]: the GPUs and injection this file decides
local ENV_NAME = "AMD_VISIBLE_DEVICES"
local ANNOTATION_PREFIX = "cdi.k8s.io/"
local CDI_KIND = "amd.com/gpu"

-- ---------------------------------------------------------------------------
-- Channels. Each returns a list of tokens {id=, source=, reason=}.

local function annotation_tokens(req)
  local keys = {}
  for key in pairs(req.annotations) do
    if starts_with(key, ANNOTATION_PREFIX) then keys[#keys + 1] = key end
  end
  table.sort(keys)
  local tokens = {}
  for _, key in ipairs(keys) do
    for _, name in ipairs(split_commas(req.annotations[key])) do
      -- Other vendors' CDI devices are theirs.
      if starts_with(name, CDI_KIND .. "=") then
        tokens[#tokens + 1] = {id = name:sub(#CDI_KIND + 2), source = "annotation " .. key,
                               reason = "annotation " .. key .. "=" .. name}
      end
    end
  end
  return tokens
end

local function mount_tokens(req)
  local prefix = (policy.data.amd or {}).volume_mount_prefix
  if type(prefix) ~= "string" or prefix == "" then return {} end
  prefix = prefix:gsub("/+$", "") .. "/"
  local tokens, seen = {}, {}
  for _, mount in ipairs(req.mounts) do
    local dest = (mount.destination or ""):gsub("/+$", "")
    if mount.source == "/dev/null" and starts_with(dest, prefix) and not seen[dest] then
      seen[dest] = true
      tokens[#tokens + 1] = {id = dest:sub(#prefix + 1), source = "volume mount " .. dest,
                             reason = "volume mount " .. dest}
    end
  end
  return tokens
end

local function env_tokens(req)
  local value = req.env[ENV_NAME]
  local tokens = {}
  for _, raw in ipairs(split_commas(value or "")) do
    if raw ~= "" then
      local id = starts_with(raw, CDI_KIND .. "=") and raw:sub(#CDI_KIND + 2) or raw
      tokens[#tokens + 1] = {id = id, source = ENV_NAME, reason = ENV_NAME .. "=" .. raw}
    end
  end
  return tokens, "env " .. ENV_NAME .. "=" .. (value or "")
end

-- ---------------------------------------------------------------------------
-- Resolving one id against the host's AMD GPUs (`host.gpus` here holds
-- those alone, in amd-ctk's order): a list of host GPU indices (gpu.index,
-- what grant:add_device takes), or nil plus a refusal.

local function unknown(tok, detail)
  local msg = "unknown device '" .. tok.id .. "' in " .. tok.source
  if detail then msg = msg .. " (" .. detail .. ")" end
  return nil, msg
end

local function host_has(host) return "the host has " .. #host.gpus .. " AMD GPUs" end

local function resolve_range(host, tok, first, last)
  first, last = tonumber(first), tonumber(last)
  if first > last then return unknown(tok, "the range is reversed") end
  if last >= #host.gpus then return unknown(tok, host_has(host)) end
  local picked = {}
  for index = first, last do picked[#picked + 1] = host.gpus[index + 1].index end
  return picked
end

-- amd-ctk compares unique ids in lower case, with or without "0x".
local function resolve_unique_id(host, tok, hex)
  local wanted = "0x" .. hex:lower()
  local picked = {}
  for _, gpu in ipairs(host.gpus) do
    if gpu.uuid:lower() == wanted then picked[#picked + 1] = gpu.index end
  end
  if #picked == 0 then return unknown(tok, "no AMD GPU of this host has that unique id") end
  return picked
end

local function resolve(host, tok)
  local id = tok.id
  local hex = id:match("^0[xX](%x+)$")
  if hex then return resolve_unique_id(host, tok, hex) end
  if #id > 8 and id:match("^%x+$") then return resolve_unique_id(host, tok, id) end
  local first, last = id:match("^(%d+)%-(%d+)$")
  if first then return resolve_range(host, tok, first, last) end
  if id:match("^%d+$") then
    local index = tonumber(id)
    if index >= #host.gpus then return unknown(tok, host_has(host)) end
    return {host.gpus[index + 1].index}
  end
  return unknown(tok)
end

-- ---------------------------------------------------------------------------
-- Turning a channel's tokens into grants.

local function grant_all(host, grant, tok)
  grant:inject(tok.reason, VENDOR)
  if #host.gpus == 0 then grant:note("no AMD GPUs found on this host; injecting /dev/kfd only") end
  for _, gpu in ipairs(host.gpus) do grant:add_device(gpu.index, tok.reason) end
end

local function grant_listed(host, grant, tokens, request)
  -- Resolve everything first so a bad token refuses before anything is granted.
  local picked = {}
  for _, tok in ipairs(tokens) do
    local indices, refusal = resolve(host, tok)
    if not indices then return grant:deny(refusal) end
    for _, index in ipairs(indices) do picked[#picked + 1] = {index = index, reason = tok.reason} end
  end
  grant:inject(request, VENDOR)
  local seen = {}
  for _, p in ipairs(picked) do
    if not seen[p.index] then
      seen[p.index] = true
      grant:add_device(p.index, p.reason)
    end
  end
end

local function select_devices(host, grant, tokens, request)
  for _, tok in ipairs(tokens) do
    if tok.id == "void" then return grant:skip(tok.reason, VENDOR) end
  end
  for _, tok in ipairs(tokens) do
    if tok.id:lower() == "all" then return grant_all(host, grant, tok) end
    if tok.id == "none" then return grant:inject(tok.reason .. " (/dev/kfd without GPUs)", VENDOR) end
  end
  return grant_listed(host, grant, tokens, request)
end

local function untrusted_note(req, what)
  if req.privileged then
    return "ignored AMD GPUs requested by " .. what ..
           " (not a trusted request channel for privileged containers)"
  end
  return "ignored AMD GPUs requested by " .. what .. " in an unprivileged container"
end

rule("amd-visible-devices", "request", function(req, host, grant)
  -- Another vendor's GPUs are not ours to name: indices count AMD GPUs.
  local own = {gpus = values.vendor_gpus(host, VENDOR)}
  local env, env_request = env_tokens(req)
  local channels = {
    {trust = "annotations", tokens = annotation_tokens(req),
     what = "annotations " .. ANNOTATION_PREFIX .. "*"},
    {trust = "volume-mounts", tokens = mount_tokens(req), what = "volume mounts"},
    {trust = "env", tokens = env, what = "environment", request = env_request},
  }
  local ignored = false
  for _, ch in ipairs(channels) do
    if #ch.tokens > 0 then
      if req.trusted[ch.trust] then
        local request = ch.request or ch.what
        grant:note("AMD GPUs from " .. request .. " (trusted)")
        return select_devices(own, grant, ch.tokens, request)
      end
      grant:note(untrusted_note(req, ch.what))
      ignored = true
    end
  end
  if ignored then
    grant:skip("AMD GPUs were requested only through untrusted channels", VENDOR)
  else
    grant:skip("no AMD GPU requested (" .. ENV_NAME .. " unset or empty)", VENDOR)
  end
end)
-- SPDX-License-Identifier: Apache-2.0
