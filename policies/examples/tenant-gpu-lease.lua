-- tenant-gpu-lease.lua: a tenant's containers only ever see the GPUs leased
-- to that tenant.
--
-- The tenant comes from the annotation `example.com/tenant`; its lease is
-- policy.data.leases[<tenant>], a list of GPU UUIDs and/or GPU indices.
-- Lists may name GPUs of other nodes: UUIDs and indices this host does not
-- have are ignored. An entry that is neither an index nor UUID-shaped (a
-- truncated UUID, a name) is an error. GPUs (and their partitions) outside
-- the lease are removed from the grant and show in the plan as denials
-- ("GPU 3 ... lease for team-a").
--
--   * not a GPU container (nothing injected): the rule does not apply;
--   * a GPU container with no (or an empty) tenant annotation is REFUSED: it
--     fails closed. An annotation can go missing on the way: on containerd a
--     pod annotation reaches the container's config.json only when the
--     runtime entry lists it in `pod_annotations` (CRI-O: the runtime
--     handler's `allowed_annotations`), and a rule that skipped such a
--     container would hand it every GPU;
--   * a tenant without a lease, or whose lease leaves none of the GPUs the
--     container was granted (another node's lease, a mistyped UUID): the
--     container is REFUSED, rather than started with no GPUs, so it is a
--     loud error, not a silent CPU-only job.
--
-- Pod authors can set arbitrary annotations, so the annotation must come from
-- something the site trusts (e.g. an admission webhook that overwrites it).
-- Every GPU pod needs one, the site's own too (an operator's, a monitoring
-- agent's): give them a tenant with its lease.
--
-- Site policy:
--   rules = ["/usr/share/graft/policies/examples/tenant-gpu-lease.lua"]
--   [data.leases]
--   team-a = ["GPU-4f0e6c3a-5e2b-11ee-8c99-0242ac120002"]
--   team-b = [2, 3]

local ANNOTATION = "example.com/tenant"

rule("tenant-gpu-lease", function(req, host, grant)
  if not grant:injecting() then return end
  local tenant = req.annotations[ANNOTATION]
  if tenant == nil or tenant == "" then
    return grant:deny("no '" .. ANNOTATION .. "' annotation, so no GPU lease applies (does the runtime pass "
      .. "it? containerd: list it in the runtime's pod_annotations)")
  end
  local leases = policy.data.leases
  local lease = leases and leases[tenant]
  if lease == nil then
    return grant:deny("tenant '" .. tenant .. "' has no GPU lease (policy.data.leases)")
  end
  grant:restrict_devices(lease, "lease for " .. tenant)
end)
-- SPDX-License-Identifier: Apache-2.0
