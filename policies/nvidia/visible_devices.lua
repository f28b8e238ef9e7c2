-- visible_devices.lua: which GPUs a container asked for, read the way the
-- NVIDIA Container Toolkit reads it (device request channels and
-- NVIDIA_VISIBLE_DEVICES values) and resolved the way libnvidia-container's
-- select_devices does, without NVML.
--
-- Channels, in precedence order: CDI annotations `cdi.k8s.io/*` naming
-- `nvidia.com/gpu=<id>`, volume mounts of /dev/null under
-- policy.data.volume_mount_prefix, env NVIDIA_VISIBLE_DEVICES. The first
-- channel that is present and trusted decides; a present but untrusted one is
-- ignored with a note (not an error), as the toolkit does for env requests in
-- unprivileged containers.
--
-- This file decides grant:inject / grant:skip; the files after it
-- (capabilities, requirements, mig) only act when it decided to inject.

local values = require("request_values")
local split_commas, starts_with = values.split_commas, values.starts_with
local is_legacy_image = require("env_values").is_legacy_image

local VENDOR = "nvidia"  -- [vendor.nvidia]: the GPUs and injection this file decides
local ENV_NAME = "NVIDIA_VISIBLE_DEVICES"
local ANNOTATION_PREFIX = "cdi.k8s.io/"
local CDI_KIND = "nvidia.com/gpu"

-- ---------------------------------------------------------------------------
-- Channels. Each returns a list of tokens {id=, source=, reason=}: `source`
-- names where the id came from in refusals, `reason` is what an auditor sees
-- next to the granted device.

local function annotation_tokens(req)
  local keys = {}
  for key in pairs(req.annotations) do
    if starts_with(key, ANNOTATION_PREFIX) then keys[#keys + 1] = key end
  end
  table.sort(keys)  -- the toolkit sorts keys too, so the order is stable
  local tokens = {}
  for _, key in ipairs(keys) do
    for _, name in ipairs(split_commas(req.annotations[key])) do
      -- Other vendors' CDI devices are not ours to resolve.
      if starts_with(name, CDI_KIND .. "=") then
        local id = name:sub(#CDI_KIND + 2)
        tokens[#tokens + 1] = {id = id, source = "annotation " .. key,
                               reason = "annotation " .. key .. "=" .. name}
      end
    end
  end
  return tokens
end

-- The device id a volume-mount destination names, or nil (plus a note when
-- the mount is a request nobody handles: another vendor's CDI device).
local function mount_device_id(rest)
  local cdi = rest:match("^cdi/(.*)$")
  if cdi then
    local id = cdi:match("^nvidia%.com/gpu[/=](.+)$")
    if id then return id end
    return nil, "ignored volume-mount request for CDI device '" .. cdi .. "' (not an NVIDIA GPU)"
  end
  -- IMEX channel requests are imex_channels.lua's.
  if starts_with(rest, "imex/") then return nil end
  return rest
end

local function mount_tokens(req, grant)
  local prefix = policy.data.volume_mount_prefix
  if type(prefix) ~= "string" or prefix == "" then return {} end
  prefix = prefix:gsub("/+$", "") .. "/"
  local tokens, seen = {}, {}
  for _, mount in ipairs(req.mounts) do
    local dest = (mount.destination or ""):gsub("/+$", "")
    if mount.source == "/dev/null" and starts_with(dest, prefix) and not seen[dest] then
      seen[dest] = true  -- duplicate destinations are dropped, as upstream
      local id, note = mount_device_id(dest:sub(#prefix + 1))
      if id then
        tokens[#tokens + 1] = {id = id, source = "volume mount " .. dest,
                               reason = "volume mount " .. dest}
      elseif note then
        grant:note(note)
      end
    end
  end
  return tokens
end

-- Returns the tokens and a description of the request for notes.
local function env_tokens(req)
  local value = req.env[ENV_NAME]
  -- A legacy image predates the variable: unset devices mean `all`.
  if value == nil and is_legacy_image(req.env) then
    local why = "legacy CUDA image (CUDA_VERSION=" .. req.env.CUDA_VERSION ..
                " without NVIDIA_REQUIRE_CUDA), " .. ENV_NAME .. " unset"
    return {{id = "all", source = ENV_NAME, reason = why}}, why
  end
  local tokens = {}
  for _, raw in ipairs(split_commas(value or "")) do
    if raw ~= "" then
      -- A fully qualified CDI name of our kind means its device id.
      local id = starts_with(raw, CDI_KIND .. "=") and raw:sub(#CDI_KIND + 2) or raw
      tokens[#tokens + 1] = {id = id, source = ENV_NAME, reason = ENV_NAME .. "=" .. raw}
    end
  end
  return tokens, "env " .. ENV_NAME .. "=" .. (value or "")
end

-- ---------------------------------------------------------------------------
-- Resolving one id against host.gpus.

local function find_gpu(host, index)
  for _, gpu in ipairs(host.gpus) do
    if gpu.vendor_index == index then return gpu end
  end
end

local function find_partition(gpu, test)
  for _, part in ipairs(gpu.partitions) do
    if test(part) then return part end
  end
end

-- PCI bus ids compare as libnvidia-container normalises them
-- (%08x:%02x:%02x.%x), so "0000:19:00.0" and "00000000:19:00.0" match.
local function normalise_bus_id(s)
  local domain, bus, dev, fn = s:match("^(%x+):(%x+):(%x+)%.(%x+)$")
  if not domain or #domain > 8 or #bus > 2 or #dev > 2 or #fn > 1 then return nil end
  return string.format("%08x:%02x:%02x.%x", tonumber(domain, 16), tonumber(bus, 16),
                       tonumber(dev, 16), tonumber(fn, 16))
end

-- Each resolver returns a list of {gpu=, partition=} or nil plus a refusal.
local function unknown(tok, detail)
  local msg = "unknown device '" .. tok.id .. "' in " .. tok.source
  if detail then msg = msg .. " (" .. detail .. ")" end
  return nil, msg
end

local function resolve_index(host, tok)
  local gpu = find_gpu(host, tonumber(tok.id))
  if not gpu then return unknown(tok, "the host has " .. #host.gpus .. " GPUs") end
  return {{gpu = gpu.index}}
end

local function resolve_mig_index(host, tok, gpu_text, part_text)
  local gpu = find_gpu(host, tonumber(gpu_text))
  if not gpu then return unknown(tok, "the host has " .. #host.gpus .. " GPUs") end
  if #gpu.partitions == 0 then
    return unknown(tok, "GPU " .. gpu.vendor_index .. " has no MIG partitions")
  end
  local wanted = tonumber(part_text)
  local part = find_partition(gpu, function(p) return p.index == wanted end)
  if not part then
    return unknown(tok, "GPU " .. gpu.vendor_index .. " has " .. #gpu.partitions .. " MIG partitions")
  end
  return {{gpu = gpu.index, partition = part.index}}
end

-- GPU-<uuid>, or a unique prefix of one (libnvidia-container accepts prefixes).
local function resolve_uuid(host, tok)
  local wanted = tok.id:lower()
  local matches = {}
  for _, gpu in ipairs(host.gpus) do
    if starts_with(gpu.uuid:lower(), wanted) then matches[#matches + 1] = gpu end
  end
  if #matches == 0 then return unknown(tok) end
  if #matches > 1 then
    local names = {}
    for _, gpu in ipairs(matches) do names[#names + 1] = "GPU " .. gpu.vendor_index end
    return nil, "ambiguous device '" .. tok.id .. "' in " .. tok.source ..
                " (matches " .. table.concat(names, ", ") .. ")"
  end
  return {{gpu = matches[1].index}}
end

-- The old MIG name MIG-GPU-<uuid>/<gi>/<ci> carries everything we need.
local function resolve_old_mig_name(host, tok, uuid, gi, ci)
  for _, gpu in ipairs(host.gpus) do
    if gpu.uuid:lower() == uuid:lower() then
      local g, c = tonumber(gi), tonumber(ci)
      local part = find_partition(gpu, function(p) return p.gi == g and p.ci == c end)
      if not part then return unknown(tok, "GPU " .. gpu.vendor_index .. " has no such MIG partition") end
      return {{gpu = gpu.index, partition = part.index}}
    end
  end
  return unknown(tok)
end

-- MIG-<uuid>: the driver's procfs has no partition UUIDs; a partition has
-- one only when the host's partition manager wrote the UUID file that
-- [vendor.nvidia] partition_uuid_file names. Without any, refused as before.
local function resolve_mig_uuid(host, tok)
  local wanted, mapped = tok.id:lower(), false
  for _, gpu in ipairs(host.gpus) do
    for _, part in ipairs(gpu.partitions) do
      if part.uuid ~= "" then
        mapped = true
        if part.uuid:lower() == wanted then return {{gpu = gpu.index, partition = part.index}} end
      end
    end
  end
  if not mapped then
    return nil, "cannot resolve MIG device '" .. tok.id .. "' in " .. tok.source ..
                ": MIG UUIDs cannot be resolved without NVML or a MIG UUID file" ..
                " ([vendor.nvidia] partition_uuid_file); use <gpu>:<mig> indices (e.g. 0:1)"
  end
  return unknown(tok, "no MIG partition of this host has that UUID")
end

local function resolve_bus_id(host, tok, wanted)
  for _, gpu in ipairs(host.gpus) do
    if normalise_bus_id(gpu.bus_id or "") == wanted then return {{gpu = gpu.index}} end
  end
  return unknown(tok)
end

local function resolve(host, tok)
  local id = tok.id
  if id:match("^%d+$") then return resolve_index(host, tok) end
  local gpu_text, part_text = id:match("^(%d+):(%d+)$")
  if gpu_text then return resolve_mig_index(host, tok, gpu_text, part_text) end
  local uuid, gi, ci = id:match("^MIG%-(GPU%-[%x%-]+)/(%d+)/(%d+)$")
  if uuid then return resolve_old_mig_name(host, tok, uuid, gi, ci) end
  if id:match("^[Mm][Ii][Gg]%-") then return resolve_mig_uuid(host, tok) end
  if id:match("^[Gg][Pp][Uu]%-%x") then return resolve_uuid(host, tok) end
  local bus = normalise_bus_id(id)
  if bus then return resolve_bus_id(host, tok, bus) end
  return unknown(tok)
end

-- ---------------------------------------------------------------------------
-- Turning a channel's tokens into grants.

local function grant_all(host, grant, tok)
  grant:inject(tok.reason, VENDOR)
  if #host.gpus == 0 then grant:note("no GPUs found on this host; injecting the driver only") end
  for _, gpu in ipairs(host.gpus) do
    grant:add_device(gpu.index, tok.reason)
  end
end

local function grant_listed(host, grant, tokens, request)
  -- Resolve everything first so a bad token refuses before anything is granted.
  local picked = {}
  for _, tok in ipairs(tokens) do
    local targets, refusal = resolve(host, tok)
    if not targets then return grant:deny(refusal) end
    for _, t in ipairs(targets) do picked[#picked + 1] = {target = t, reason = tok.reason} end
  end
  grant:inject(request, VENDOR)
  local seen = {}
  for _, p in ipairs(picked) do
    local key = p.target.gpu .. ":" .. tostring(p.target.partition)
    if not seen[key] then  -- duplicates are harmless
      seen[key] = true
      if p.target.partition then
        grant:add_partition(p.target.gpu, p.target.partition, p.reason)
      else
        grant:add_device(p.target.gpu, p.reason)
      end
    end
  end
end

local function select_devices(host, grant, tokens, request)
  -- `void` anywhere wins: not a GPU container (toolkit devices.go).
  for _, tok in ipairs(tokens) do
    if tok.id == "void" then return grant:skip(tok.reason, VENDOR) end
  end
  -- `all` or `none` anywhere: the first of the two wins, the rest is moot.
  for _, tok in ipairs(tokens) do
    if tok.id == "all" then return grant_all(host, grant, tok) end
    if tok.id == "none" then return grant:inject(tok.reason .. " (driver without GPUs)", VENDOR) end
  end
  return grant_listed(host, grant, tokens, request)
end

local function untrusted_note(req, what)
  if req.privileged then
    return "ignored devices requested by " .. what ..
           " (not a trusted request channel for privileged containers)"
  end
  return "ignored devices requested by " .. what .. " in an unprivileged container"
end

rule("nvidia-visible-devices", "request", function(req, host, grant)
  -- Another vendor's GPUs are not ours to name: indices count NVIDIA GPUs.
  local own = {gpus = values.vendor_gpus(host, VENDOR)}
  local env, env_request = env_tokens(req)
  local channels = {
    {trust = "annotations", tokens = annotation_tokens(req),
     what = "annotations " .. ANNOTATION_PREFIX .. "*"},
    {trust = "volume-mounts", tokens = mount_tokens(req, grant), what = "volume mounts"},
    {trust = "env", tokens = env, what = "environment", request = env_request},
  }
  local ignored = false
  for _, ch in ipairs(channels) do
    if #ch.tokens > 0 then
      if req.trusted[ch.trust] then
        local request = ch.request or ch.what
        grant:note("devices from " .. request .. " (trusted)")
        return select_devices(own, grant, ch.tokens, request)
      end
      grant:note(untrusted_note(req, ch.what))
      ignored = true
    end
  end
  if ignored then
    grant:skip("GPUs were requested only through untrusted channels", VENDOR)
  else
    grant:skip("no GPU requested (" .. ENV_NAME .. " unset or empty)", VENDOR)
  end
end)
-- SPDX-License-Identifier: Apache-2.0
