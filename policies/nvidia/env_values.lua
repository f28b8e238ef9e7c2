-- env_values.lua: reading NVIDIA_* request values, shared by the rule files
-- (declared in nvidia.toml as a rule module; `local env_values =
-- require("env_values")`).

-- Every vendor's helpers (policies/common/request_values.lua), then NVIDIA's own.
local M = {}
for name, helper in pairs(require("request_values")) do M[name] = helper end

-- A legacy CUDA image predates NVIDIA_VISIBLE_DEVICES: CUDA_VERSION set and
-- NVIDIA_REQUIRE_CUDA empty (toolkit IsLegacy).
function M.is_legacy_image(env)
  return (env.CUDA_VERSION or "") ~= "" and (env.NVIDIA_REQUIRE_CUDA or "") == ""
end

return M
-- SPDX-License-Identifier: Apache-2.0
