-- env_values.lua: what the NVIDIA rule files share beyond every vendor's
-- helpers (policies/common/request_values.lua): the legacy CUDA image test
-- (declared in nvidia.toml as a rule module; `require("env_values")`).

local M = {}

-- A legacy CUDA image predates NVIDIA_VISIBLE_DEVICES: CUDA_VERSION set and
-- NVIDIA_REQUIRE_CUDA empty (toolkit IsLegacy).
function M.is_legacy_image(env)
  return (env.CUDA_VERSION or "") ~= "" and (env.NVIDIA_REQUIRE_CUDA or "") == ""
end

return M
-- SPDX-License-Identifier: Apache-2.0
