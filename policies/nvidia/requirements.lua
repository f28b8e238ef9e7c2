-- requirements.lua: NVIDIA_REQUIRE_* constraints, with libnvidia-container's
-- grammar (src/cli/dsl.c) and the toolkit's sources (GetRequirements):
--   every env var NVIDIA_REQUIRE_* except NVIDIA_REQUIRE_JETPACK*, at most 32,
--   plus `cuda>=<major.minor of CUDA_VERSION>` for a legacy CUDA image;
--   NVIDIA_DISABLE_REQUIRE (a Go bool) or policy.data.disable_require = true
--   turns them all off.
-- One expression: whitespace separates OR alternatives, a comma separates AND
-- terms, a term is `name OP value` with name cuda|driver|arch|brand (any case)
-- and OP one of = != < <= > >=. cuda/driver/arch compare as dotted numeric
-- versions, brand as a case-insensitive string (= and != only).
-- Operands without NVML: driver = host.driver_version, cuda =
-- policy.data.cuda_by_driver_branch[<driver major>], arch and brand the GPU's
-- procfs model looked up in policy.data.arch_by_model / brand_by_model.
-- As upstream, every expression is checked once per granted GPU (a MIG
-- partition counts as its parent GPU), or once without arch and brand when
-- no GPU is granted. An unknown operand makes its term pass, as upstream does
-- for missing values. Only checked for containers that are being injected.

local starts_with = require("request_values").starts_with
local is_legacy_image = require("env_values").is_legacy_image

local PREFIX = "NVIDIA_REQUIRE_"
local EXCLUDED_PREFIX = "NVIDIA_REQUIRE_JETPACK"
local MAX_REQUIREMENTS = 32
local MAX_EXPRESSION = 4096
local CUDA_HINT = ", please update your driver to a newer version, or use an earlier cuda container"
local OPERATORS = {["="] = true, ["!="] = true, ["<"] = true, ["<="] = true, [">"] = true, [">="] = true}
local VERSION_NAMES = {cuda = true, driver = true, arch = true}

-- Go strconv.ParseBool; anything it rejects counts as false.
local function parse_go_bool(s)
  local truthy = {["1"] = true, t = true, T = true, TRUE = true, ["true"] = true, True = true}
  return truthy[s] == true
end

-- "12.06" -> {"12", "6"}: digit strings without leading zeros, so any length
-- compares exactly; nil when not digits and dots.
local function version_parts(s)
  local parts = {}
  for part in (s .. "."):gmatch("([^.]*)%.") do
    if not part:match("^%d+$") then return nil end
    parts[#parts + 1] = (part:gsub("^0+", ""))
  end
  return parts
end

-- -1, 0 or 1; missing trailing components count as 0 ("" here).
local function compare_versions(a, b)
  for i = 1, math.max(#a, #b) do
    local x, y = a[i] or "", b[i] or ""
    if #x ~= #y then return #x < #y and -1 or 1 end
    if x ~= y then return x < y and -1 or 1 end
  end
  return 0
end

local function holds(op, cmp)
  if op == "=" then return cmp == 0 end
  if op == "!=" then return cmp ~= 0 end
  if op == "<" then return cmp < 0 end
  if op == "<=" then return cmp <= 0 end
  if op == ">" then return cmp > 0 end
  return cmp >= 0
end

-- ---------------------------------------------------------------------------
-- Parsing. An expression becomes a list of alternatives {text=, terms=};
-- parse errors come back as nil plus the offending term.

local function parse_term(text)
  local name, op, value = text:match("^(%a+)([<>=!]+)(.*)$")
  if not name or not OPERATORS[op] or value == "" then return nil end
  name = name:lower()
  if VERSION_NAMES[name] then
    if not version_parts(value) then return nil end
  elseif name == "brand" then
    if op ~= "=" and op ~= "!=" then return nil end
  else
    return nil
  end
  return {name = name, op = op, value = value}
end

local function parse_expression(expr)
  local alternatives = {}
  for alt_text in expr:gmatch("%S+") do
    local alt = {text = alt_text, terms = {}}
    for term_text in alt_text:gmatch("[^,]+") do
      local term = parse_term(term_text)
      if not term then return nil, term_text end
      alt.terms[#alt.terms + 1] = term
    end
    alternatives[#alternatives + 1] = alt
  end
  return alternatives
end

-- ---------------------------------------------------------------------------
-- Model tables (policy.data.arch_by_model, brand_by_model): a key is words
-- that must appear in the model name in order; "X*" matches a word starting
-- with X. The key with the most words wins, then the longer key, then the
-- smaller one, so the answer does not depend on table order.

local function words_of(text)
  local words = {}
  for word in text:lower():gmatch("[^%s%-]+") do words[#words + 1] = word end
  return words
end

local function word_matches(word, key_word)
  if key_word:sub(-1) == "*" then return starts_with(word, key_word:sub(1, -2)) end
  return word == key_word
end

local function key_matches(words, key_words)
  for start = 1, #words - #key_words + 1 do
    local all = true
    for i, key_word in ipairs(key_words) do
      if not word_matches(words[start + i - 1], key_word) then all = false; break end
    end
    if all then return true end
  end
  return false
end

local function better_key(key, key_words, best, best_words)
  if best == nil then return true end
  if #key_words ~= #best_words then return #key_words > #best_words end
  if #key ~= #best then return #key > #best end
  return key < best
end

-- The value the table gives `model`, or nil.
local function lookup_model(tbl, model)
  local kind = type(tbl)  -- policy.data tables reach rules as read-only views (userdata)
  if (kind ~= "table" and kind ~= "userdata") or model == nil or model == "" then return nil end
  local words = words_of(model)
  local best, best_words, value
  for key, v in pairs(tbl) do
    local key_words = type(key) == "string" and words_of(key) or {}
    local usable = #key_words > 0 and (type(v) == "string" or type(v) == "number")
    if usable and key_matches(words, key_words) and better_key(key, key_words, best, best_words) then
      best, best_words, value = key, key_words, v
    end
  end
  if value == nil then return nil end
  return tostring(value)
end

-- ---------------------------------------------------------------------------
-- Evaluation.

-- What the host offers for each name; nil = unknown (the term passes).
local function host_operands(host)
  local driver = host.driver_versions.nvidia or host.driver_version
  if driver == "" or not version_parts(driver) then driver = nil end
  local cuda
  local branches = policy.data.cuda_by_driver_branch
  if driver and branches then cuda = branches[driver:match("^(%d+)")] end
  if cuda ~= nil then cuda = tostring(cuda) end
  return {driver = driver, cuda = cuda}
end

-- One operand set per granted GPU ({gpu=, model=, arch=, brand=} added), in
-- index order; the host's alone when no GPU is granted.
local function device_operands(host, grant, base)
  local wanted, indices = {}, {}
  for _, d in ipairs(grant:devices()) do
    -- Requirements are about NVIDIA GPUs; another vendor's granted beside them are not checked.
    if not wanted[d.gpu] and host.gpus[d.gpu + 1].vendor == "nvidia" then
      wanted[d.gpu] = true; indices[#indices + 1] = d.gpu
    end
  end
  table.sort(indices)
  if #indices == 0 then return {base} end
  local models = {}
  for _, gpu in ipairs(host.gpus) do models[gpu.index] = gpu.model end
  local list, seen = {}, {}  -- seen: model -> {arch, brand}; GPUs of one model look up once
  for _, index in ipairs(indices) do
    local model = models[index]
    local found = model and seen[model]
    if not found then
      found = {lookup_model(policy.data.arch_by_model, model), lookup_model(policy.data.brand_by_model, model)}
      if model then seen[model] = found end
    end
    list[#list + 1] = {driver = base.driver, cuda = base.cuda, gpu = index, model = model,
                       arch = found[1], brand = found[2]}
  end
  return list
end

local function term_holds(term, operands)
  local have = operands[term.name]
  if have == nil then return true end
  if term.name == "brand" then
    return holds(term.op, have:lower() == term.value:lower() and 0 or 1)
  end
  local have_parts = version_parts(have)
  if not have_parts then return true end  -- a malformed host value counts as unknown
  return holds(term.op, compare_versions(have_parts, version_parts(term.value)))
end

local function alternative_holds(alt, operands)
  for _, term in ipairs(alt.terms) do
    if not term_holds(term, operands) then return false end
  end
  return true
end

local function mentions_cuda(alt)
  for _, term in ipairs(alt.terms) do
    if term.name == "cuda" then return true end
  end
  return false
end

-- nil when satisfied, else the refusal text.
local function check(alternatives, operands)
  if #alternatives == 0 then return nil end
  for _, alt in ipairs(alternatives) do
    if alternative_holds(alt, operands) then return nil end
  end
  local first = alternatives[1]
  local msg = "unsatisfied condition: " .. first.text
  if mentions_cuda(first) then msg = msg .. CUDA_HINT end
  return msg
end

-- ---------------------------------------------------------------------------
-- Sources.

-- {name=, value=} in name order, so the first refusal is stable; or nil plus
-- a refusal.
local function collect(env)
  local names = {}
  for name, value in pairs(env) do
    if starts_with(name, PREFIX) and not starts_with(name, EXCLUDED_PREFIX) and value:match("%S") then
      names[#names + 1] = name
    end
  end
  table.sort(names)
  local list = {}
  for _, name in ipairs(names) do list[#list + 1] = {name = name, value = env[name]} end

  local cuda_version = env.CUDA_VERSION or ""
  if is_legacy_image(env) then
    local parts = version_parts(cuda_version)
    if not parts then
      return nil, "invalid CUDA_VERSION '" .. cuda_version .. "' in a legacy CUDA image" ..
                  " (expected a dotted numeric version)"
    end
    local major, minor = parts[1], parts[2] or ""
    list[#list + 1] = {name = "CUDA_VERSION (legacy CUDA image)",
                       value = "cuda>=" .. (major == "" and "0" or major) .. "." ..
                               (minor == "" and "0" or minor)}
  end
  if #list > MAX_REQUIREMENTS then
    return nil, "too many requirements: " .. #list .. " NVIDIA_REQUIRE_* constraints (at most " ..
                MAX_REQUIREMENTS .. ")"
  end
  return list
end

local function describe_operands(list)
  local base = list[1]
  local text = "driver " .. (base.driver or "unknown") .. ", cuda " .. (base.cuda or "unknown")
  if base.gpu == nil then return text .. ", arch and brand unknown (no GPU granted)" end
  for _, o in ipairs(list) do
    text = text .. "; GPU " .. o.gpu .. " (" .. (o.model or "no model") .. ") arch " ..
           (o.arch or "unknown") .. ", brand " .. (o.brand or "unknown")
  end
  return text
end

rule("nvidia-requirements", "check", function(req, host, grant)
  if not grant:injecting("nvidia") then return end
  -- The site-wide switch, like the toolkit's `disable-require = true`.
  if policy.data.disable_require == true then
    return grant:note("requirements disabled by policy (data.disable_require)")
  end
  local disable = req.env.NVIDIA_DISABLE_REQUIRE
  if disable ~= nil and parse_go_bool(disable) then
    return grant:note("requirements disabled by NVIDIA_DISABLE_REQUIRE=" .. disable)
  end

  local list, refusal = collect(req.env)
  if not list then return grant:deny(refusal) end
  if #list == 0 then return end

  local operands = device_operands(host, grant, host_operands(host))
  local names = {}
  for _, r in ipairs(list) do names[#names + 1] = r.name end
  grant:note("requirements " .. table.concat(names, ", ") .. " checked against " ..
             describe_operands(operands))

  for _, r in ipairs(list) do
    if #r.value > MAX_EXPRESSION then
      return grant:deny("invalid expression in " .. r.name .. ": longer than " ..
                        MAX_EXPRESSION .. " characters")
    end
    local alternatives, bad_term = parse_expression(r.value)
    if not alternatives then
      return grant:deny("invalid expression '" .. bad_term .. "' in " .. r.name)
    end
    for _, o in ipairs(operands) do
      local unmet = check(alternatives, o)
      if unmet then return grant:deny(unmet) end
    end
  end
end)
-- SPDX-License-Identifier: Apache-2.0
