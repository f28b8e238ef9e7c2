-- graphics.lua: the driver application profile that limits EGL and Vulkan to
-- the GPUs this container was granted.
--
-- Without it, an EGL or Vulkan client in the container enumerates every GPU the
-- driver knows, including ones it cannot open. libnvidia-container writes the
-- same profile: a tmpfs over the profile directory holding 10-container.conf
-- whose EGLVisibleDGPUDevices mask has bit <minor> set for each granted GPU.

local profile_path = "/etc/nvidia/nvidia-application-profiles-rc.d/10-container.conf"

local function has(list, wanted)
  for _, name in ipairs(list) do
    if name == wanted then return true end
  end
  return false
end

rule("nvidia-graphics-profile", "derive", function(req, host, grant)
  if not grant:injecting("nvidia") then return end
  local caps = grant:capabilities()
  if not (has(caps, "graphics") or has(caps, "display")) then return end
  local mask, seen = 0, {}
  for _, device in ipairs(grant:devices()) do
    -- Another vendor's GPU of a container of two vendors is not an EGL device of ours.
    if not seen[device.gpu] and host.gpus[device.gpu + 1].vendor == "nvidia" then
      seen[device.gpu] = true
      mask = mask | (1 << host.gpus[device.gpu + 1].minor)
    end
  end
  if mask == 0 then return end
  local content = string.format(
    '{"profiles":[{"name":"_container_","settings":["EGLVisibleDGPUDevices",0x%x]}],' ..
    '"rules":[{"pattern":[],"profile":"_container_"}]}\n', mask)
  grant:write_file(profile_path, content, "EGL/Vulkan limited to the granted GPUs")
end)
-- SPDX-License-Identifier: Apache-2.0
