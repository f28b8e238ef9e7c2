// SPDX-License-Identifier: Apache-2.0
// `graft cdi refresh`: keeps the CDI spec at --output current, for the
// graft-cdi-refresh units that run it at boot and on every driver or policy
// change (docs/cdi.md "Keeping the spec current"). With a driver and a GPU
// it writes the spec as `cdi generate --output` does, checked by `cdi
// validate`'s rules first. With none it removes the stale spec and says so
// in one line, exit 0: a host without its driver is no failure at boot,
// and a unit that failed or retried would only spin. It replaces or
// removes only a spec graft wrote (cdi/spec_origin.hpp).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "cdi/cdi_validate.hpp"
#include "cdi/spec_origin.hpp"
#include "commands/cdi_spec_file.hpp"
#include "graft/base/bounded_read.hpp"

namespace graft::commands {
namespace {

using nlohmann::json;

enum class SpecOnDisk { absent, graft, foreign };

// What lies at `path` now: nothing, a spec graft wrote (graft's hook in
// it, or no hook at all and the `kind` this refresh writes), or anything
// else (a symlink, a file no spec parser reads, another's spec).
Result<SpecOnDisk> spec_on_disk(const std::string& path, const std::string& kind) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) {
    if (errno == ENOENT) return SpecOnDisk::absent;
    return make_sys_error(errno, "{}", path);
  }
  if (!S_ISREG(status.st_mode)) return SpecOnDisk::foreign;
  auto text = read_file(path, 16 << 20, O_NOFOLLOW | O_NONBLOCK);
  if (!text) return text.error();
  auto document = cdi::parse_spec_text(*text);
  if (!document || !document->is_object()) return SpecOnDisk::foreign;
  if (cdi::written_by_graft(*document)) return SpecOnDisk::graft;
  bool own_kind = document->value("kind", json()) == kind;
  return own_kind && !cdi::runs_any_hook(*document) ? SpecOnDisk::graft : SpecOnDisk::foreign;
}

// Why the host has no spec to offer, or "" when it has a driver and a GPU.
std::string nothing_to_offer(const Inventory& inventory) {
  if (inventory.driver_version.empty()) {
    for (const auto& warning : inventory.warnings)
      if (warning.starts_with("no driver loaded")) return warning;
    return "no driver loaded";
  }
  if (inventory.gpus.empty()) return "driver " + inventory.driver_version + " shows no GPU";
  return "";
}

// The host offers nothing: graft's old spec goes, another's stays; one line.
Result<int> remove_stale_spec(const std::string& path, SpecOnDisk on_disk, const std::string& reason) {
  std::string why = one_line(reason);
  if (on_disk == SpecOnDisk::foreign) {
    std::fprintf(stderr, "graft: %s; %s is not a spec graft wrote, left as it is\n", why.c_str(), path.c_str());
    return exit_ok;
  }
  if (on_disk == SpecOnDisk::absent) {
    std::fprintf(stderr, "graft: %s; no spec written to %s\n", why.c_str(), path.c_str());
    return exit_ok;
  }
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    return make_sys_error(errno, "{}: cannot remove the stale spec", path);
  std::fprintf(stderr, "graft: %s; removed the stale spec %s\n", why.c_str(), path.c_str());
  return exit_ok;
}

// The spec as text, after the checks `graft cdi validate` makes.
Result<std::string> checked_text(const cdi::Spec& spec, const CdiGenerateOptions& options) {
  std::string text = render_spec(spec, options);
  auto document = cdi::parse_spec_text(text);
  if (!document) return document.error().context("the generated spec");
  auto problems = cdi::validate_spec(*document);
  if (!problems.empty()) return make_error("the generated spec is not valid CDI: {}", problems.front());
  return text;
}

// /var/run/cdi is on a tmpfs, empty at boot: its last component is made
// (root's, 0755, as runtimes expect) when its parent exists.
Status make_spec_dir(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty() || ::mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST) return ok_status();
  return make_sys_error(errno, "{}", dir);
}

}  // namespace

Result<int> run_cdi_refresh(const GlobalOptions& global, const CdiGenerateOptions& options) {
  if (options.output.empty() || options.output == "-")
    return make_error("cdi refresh keeps a file current: give --output FILE");
  auto host = read_host_for_spec(global, options);
  if (!host) return host.error();
  auto on_disk = spec_on_disk(options.output, host->request.kind);
  if (!on_disk) return on_disk.error();
  if (std::string why = nothing_to_offer(host->inventory); !why.empty())
    return remove_stale_spec(options.output, *on_disk, why);
  if (*on_disk == SpecOnDisk::foreign)
    return make_error("{}: not a spec graft wrote (no graft cdi-hook in it, nor hookless of kind {}); not replaced",
                      options.output, host->request.kind);
  auto spec = cdi::generate_spec(host->inventory, host->policy, host->request);
  if (!spec) return spec.error();
  auto text = checked_text(*spec, options);
  if (!text) return text.error();
  if (auto made = make_spec_dir(options.output); !made) return made.error();
  if (auto installed = install_spec(*spec, *text, options); !installed) return installed.error();
  return exit_ok;
}

}  // namespace graft::commands
