// SPDX-License-Identifier: Apache-2.0
// `graft cdi generate`: the CDI spec for this host under the site policy
// (cdi/cdi_spec.hpp), as JSON or YAML, to stdout or to a file replaced
// whole (written beside it, then renamed) so a runtime watching /etc/cdi
// never reads half a spec.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "cdi/cdi_render.hpp"
#include "cdi/device_links.hpp"
#include "cdi/host_root.hpp"
#include "commands/cdi_spec_file.hpp"
#include "graft/base/replace_file.hpp"

namespace graft::commands {
namespace {

Result<std::string> own_binary() {
  std::error_code error;
  auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return make_error("/proc/self/exe: {}", error.message());
  return path.string();
}

// --gpu-capabilities: "default", "none" or a comma list of set names.
Result<GpuCapabilities> parse_gpu_capabilities(const std::string& text) {
  if (text == "default") return GpuCapabilities{};
  GpuCapabilities chosen{false, {}};
  if (text == "none") return chosen;
  for (std::size_t start = 0, end; start <= text.size(); start = end + 1) {
    end = std::min(text.find(',', start), text.size());
    std::string name = text.substr(start, end - start);
    if (name.empty()) return make_error("--gpu-capabilities {}: an empty set name", text);
    chosen.sets.push_back({name, {"--gpu-capabilities", 0, 0}});
  }
  return chosen;
}

Result<cdi::SpecRequest> spec_request(const GlobalOptions& global, const Policy& policy,
                                      const CdiGenerateOptions& options) {
  cdi::SpecRequest request;
  request.kind = options.kind.empty() ? policy.cdi.kind : options.kind;
  if (request.kind.empty())
    return make_error("no CDI kind: give --kind VENDOR/CLASS or set [cdi] kind in the policy");
  if (options.cdi_version != "auto") {
    auto version = cdi::parse_version(options.cdi_version);
    if (!version) return version.error().context("--cdi-version");
    request.version = *version;
  }
  // The hooks run on the host: they name the host's graft and policy.
  auto binary = own_binary();
  if (!binary) return binary.error();
  auto host_binary = cdi::path_on_host(options.host_root, *binary);
  if (!host_binary)
    return host_binary.error().context("the CDI hooks run this graft on the host; run the host's own graft");
  request.graft_binary = *host_binary;
  auto policy_path = cdi::path_on_host(options.host_root,
                                       std::filesystem::absolute(global.policy_path).lexically_normal().string());
  if (!policy_path) return policy_path.error().context("the CDI hooks read the policy on the host");
  request.policy_path = *policy_path;
  request.host_root = options.host_root;
  request.check_boundary = true;  // the host is read: hold every device's plan to the policy boundary
  if (!options.gpu_capabilities.empty()) {
    auto chosen = parse_gpu_capabilities(options.gpu_capabilities);
    if (!chosen) return chosen.error();
    request.gpu_capabilities = std::move(*chosen);
  }
  return request;
}

}  // namespace

Result<HostForSpec> read_host_for_spec(const GlobalOptions& global, const CdiGenerateOptions& options) {
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  auto request = spec_request(global, *policy, options);
  if (!request) return request.error();
  policy->host = cdi::roots_under(policy->host, options.host_root);
  auto inventory = discover_inventory(*policy);
  if (!inventory) return inventory.error();
  return HostForSpec{std::move(*policy), std::move(*request), std::move(*inventory)};
}

std::string render_spec(const cdi::Spec& spec, const CdiGenerateOptions& options) {
  return options.format == "yaml" ? cdi::render_yaml(spec) : cdi::render_json(spec);
}

Status install_spec(const cdi::Spec& spec, const std::string& text, const CdiGenerateOptions& options) {
  if (auto status = replace_file(options.output, text); !status) return status.error();
  // An installed spec's nodes must be expressible to systemd (device_links.hpp).
  if (auto linked = cdi::link_spec_device_numbers(spec, options.host_root); !linked) return linked.error();
  // One line for the admin or the unit that ran it: what a runtime will now find.
  std::fprintf(stderr, "graft: wrote %s: %zu devices of kind %s, cdiVersion %s\n", options.output.c_str(),
               spec.devices.size(), spec.kind.c_str(), cdi::to_string(spec.version).c_str());
  return ok_status();
}

Result<int> run_cdi_generate(const GlobalOptions& global, const CdiGenerateOptions& options) {
  auto host = read_host_for_spec(global, options);
  if (!host) return host.error();
  auto spec = cdi::generate_spec(host->inventory, host->policy, host->request);
  if (!spec) return spec.error();
  std::string text = render_spec(*spec, options);
  if (options.output == "-") {
    std::fputs(text.c_str(), stdout);
    return exit_ok;
  }
  if (auto installed = install_spec(*spec, text, options); !installed) return installed.error();
  return exit_ok;
}

}  // namespace graft::commands
