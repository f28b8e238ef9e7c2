// SPDX-License-Identifier: Apache-2.0
// read_case_table and its [request] and [host] readers; [expect] is in
// case_expect.cpp. Files and directories are found in find_case_files.
#include "policy_cases/case_file.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/ranges.h>

#include "graft/base/bounded_read.hpp"
#include "policy_cases/case_fields.hpp"
#include "policy_cases/case_expect.hpp"

namespace graft {
namespace {

using namespace policy_parse;
namespace fs = std::filesystem;

Result<unsigned> as_case_count(const TomlField& field, std::int64_t most) {
  auto value = as_integer(field);
  if (!value) return value.error();
  if (*value < 0 || *value > most) return field.error(fmt::format("expected 0 to {}, got {}", most, *value));
  return static_cast<unsigned>(*value);
}

// A table of strings, or an array of "KEY=VALUE" strings.
Status read_pairs(const TomlField& field, std::map<std::string, std::string>& into) {
  if (const auto* table = field.node.as_table()) {
    for (auto&& [key, node] : *table) {
      auto value = as_string(field.child(key.str(), node));
      if (!value) return value.error();
      into[std::string(key.str())] = *value;
    }
    return ok_status();
  }
  if (!field.node.is_array())
    return field.type_error("a table of strings or an array of \"KEY=VALUE\" strings");
  const auto& array = *field.node.as_array();
  for (std::size_t i = 0; i < array.size(); ++i) {
    TomlField element = field.element(i, array[i]);
    auto pair = as_string(element);
    if (!pair) return pair.error();
    auto eq = pair->find('=');
    if (eq == std::string::npos || eq == 0)
      return element.error(fmt::format("'{}': expected KEY=VALUE", *pair));
    into[pair->substr(0, eq)] = pair->substr(eq + 1);
  }
  return ok_status();
}

// A section; in a Lua case an empty table reads as an empty array, which
// here means an empty section.
template <typename T, std::size_t N>
Status read_section(const TomlField& field, const KeyReader<T> (&readers)[N], T& into) {
  if (const auto* array = field.node.as_array(); array && array->empty()) return ok_status();
  return read_every_key(field, readers, into);
}

Status read_mount(const TomlField& field, RequestMount& mount) {
  static const KeyReader<RequestMount> readers[] = {
      {"source", read_string<&RequestMount::source>},
      {"destination", read_string<&RequestMount::destination>},
      {"type", read_string<&RequestMount::type>},
      {"options", read_strings<&RequestMount::options>},
  };
  if (auto status = read_every_key(field, readers, mount); !status) return status;
  if (mount.destination.empty()) return field.error("a mount needs a destination");
  return ok_status();
}

const KeyReader<Request> kCaseRequestReaders[] = {
    {"env", +[](const TomlField& f, Request& r, const FileContext&) { return read_pairs(f, r.env); }},
    {"annotations",
     +[](const TomlField& f, Request& r, const FileContext&) { return read_pairs(f, r.annotations); }},
    {"privileged", read_bool<&Request::privileged>},
    {"id", read_string<&Request::container_id>},
    {"mounts",
     +[](const TomlField& f, Request& r, const FileContext&) {
       return read_each(f, [&](const TomlField& e) {
         RequestMount mount;
         if (auto status = read_mount(e, mount); !status) return status;
         r.mounts.push_back(std::move(mount));
         return ok_status();
       });
     }},
};

// [host] as written, before it becomes a HostShape.
struct HostFields {
  std::string name = "uniform";
  std::optional<unsigned> gpus;
  std::set<unsigned> mig;
  bool mig_all = false;
  unsigned partitions = 2;
  std::optional<std::vector<SyntheticGpu>> listed;  // [[host.gpu]]
  HostShape shape;
};

Status read_host_name(const TomlField& f, HostFields& h) {
  static constexpr std::string_view kHostNames[] = {"uniform", "sample"};
  if (auto status = store(as_string(f), h.name); !status) return status;
  if (std::find(std::begin(kHostNames), std::end(kHostNames), h.name) != std::end(kHostNames))
    return ok_status();
  return f.error(fmt::format("'{}': a built-in host is 'uniform' or 'sample'{}", h.name,
                             did_you_mean(h.name, kHostNames)));
}

Status read_mig(const TomlField& f, HostFields& h) {
  if (const auto* flag = f.node.as_boolean()) {
    h.mig_all = flag->get();
    return ok_status();
  }
  if (!f.node.is_array()) return f.type_error("true, false or an array of GPU indices");
  return read_each(f, [&](const TomlField& e) {
    auto index = as_case_count(e, 1023);
    if (!index) return Status(index.error());
    h.mig.insert(*index);
    return ok_status();
  });
}

Status read_listed_gpu(const TomlField& field, SyntheticGpu& gpu) {
  static const KeyReader<SyntheticGpu> readers[] = {
      {"vendor", read_string<&SyntheticGpu::vendor>},
      {"uuid", read_string<&SyntheticGpu::uuid>},
      {"model", read_string<&SyntheticGpu::model>},
      {"partitions", +[](const TomlField& f, SyntheticGpu& g,
                         const FileContext&) { return store(as_case_count(f, 64), g.partitions); }},
      {"partition_uuids", +[](const TomlField& f, SyntheticGpu& g,
                              const FileContext&) { return store(as_string_list(f), g.partition_uuids); }},
  };
  return read_every_key(field, readers, gpu);
}

const KeyReader<HostFields> kCaseHostReaders[] = {
    {"name", +[](const TomlField& f, HostFields& h, const FileContext&) { return read_host_name(f, h); }},
    {"gpus", +[](const TomlField& f, HostFields& h, const FileContext&) { return store(as_case_count(f, 1024), h.gpus); }},
    {"mig", +[](const TomlField& f, HostFields& h, const FileContext&) { return read_mig(f, h); }},
    {"partitions", +[](const TomlField& f, HostFields& h,
                       const FileContext&) { return store(as_case_count(f, 64), h.partitions); }},
    {"driver_version", +[](const TomlField& f, HostFields& h,
                           const FileContext&) { return store(as_string(f), h.shape.driver_version); }},
    {"missing",
     +[](const TomlField& f, HostFields& h, const FileContext&) {
       auto names = as_string_list(f);
       if (!names) return Status(names.error());
       h.shape.missing.insert(names->begin(), names->end());
       return ok_status();
     }},
    {"gpu",
     +[](const TomlField& f, HostFields& h, const FileContext&) {
       h.listed.emplace();
       return read_each(f, [&](const TomlField& e) {
         SyntheticGpu gpu;
         if (auto status = read_listed_gpu(e, gpu); !status) return status;
         h.listed->push_back(std::move(gpu));
         return ok_status();
       });
     }},
};

Result<HostShape> read_host(const TomlField& field) {
  HostFields fields;
  if (auto status = read_section(field, kCaseHostReaders, fields); !status) return status.error();
  if (fields.listed && (fields.gpus || fields.mig_all || !fields.mig.empty()))
    return field.error(
        "gpus and mig describe a uniform host; [[host.gpu]] lists each GPU instead: use one or the other");
  if (fields.name == "sample" && (fields.listed || fields.gpus || fields.mig_all || !fields.mig.empty()))
    return field.error(
        "the sample host has its own GPUs: drop gpus, mig and [[host.gpu]], or name 'uniform'");
  HostShape shape = std::move(fields.shape);
  if (fields.name == "sample") {
    shape.gpus = sample_host().gpus;
    return shape;
  }
  if (fields.listed) {
    shape.gpus = std::move(*fields.listed);
    return shape;
  }
  unsigned count = fields.gpus.value_or(2);
  std::set<unsigned> mig = fields.mig;
  for (unsigned i = 0; fields.mig_all && i < count; ++i) mig.insert(i);
  if (!mig.empty() && *mig.rbegin() >= count)
    return field.error(fmt::format("mig names GPU {}, but the host has {} GPUs", *mig.rbegin(), count));
  HostShape uniform = uniform_host(count, mig, fields.partitions);
  shape.gpus = std::move(uniform.gpus);
  return shape;
}

std::string case_stem(const std::string& file) { return fs::path(file).stem().string(); }

}  // namespace

Result<PolicyCase> read_case_table(const toml::table& table, const std::string& file) {
  PolicyCase policy_case;
  policy_case.file = file;
  policy_case.name = case_stem(file);
  policy_case.request.container_id = policy_case.name;
  policy_case.host = uniform_host(2, {}, 0);
  TomlField root{table, "", &policy_case.file};
  static const KeyReader<PolicyCase> readers[] = {
      {"name", read_string<&PolicyCase::name>},
      {"description", read_string<&PolicyCase::description>},
      {"request", +[](const TomlField& f, PolicyCase& c,
                      const FileContext&) { return read_section(f, kCaseRequestReaders, c.request); }},
      {"host",
       +[](const TomlField& f, PolicyCase& c, const FileContext&) { return store(read_host(f), c.host); }},
      {"expect",
       +[](const TomlField& f, PolicyCase& c, const FileContext&) { return read_expectation(f, c.expect); }},
  };
  if (auto status = read_every_key(root, readers, policy_case); !status) return status.error();
  return policy_case;
}

Result<PolicyCase> parse_case_toml(std::string_view text, const std::string& file) {
  try {
    toml::table table = toml::parse(text, std::string_view(file));
    return read_case_table(table, file);
  } catch (const toml::parse_error& e) {
    return make_error("{}: {}", origin_of(e.source(), file).full(), e.description());
  }
}

Result<PolicyCase> read_case_file(const std::string& path) {
  auto text = read_file(path, 1u << 20);
  if (!text) return text.error();
  if (!path.ends_with(".lua")) return parse_case_toml(*text, path);
  auto table = lua_case_table(*text, path);
  if (!table) return table.error();
  return read_case_table(*table, path);
}

Result<std::vector<std::string>> find_case_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& path : paths) {
    std::error_code error;
    if (!fs::is_directory(path, error)) {
      if (!fs::exists(path, error)) return make_error("{}: no such file or directory", path);
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(path, error)) {
      std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".toml" || ext == ".lua"))
        found.push_back(entry.path().string());
    }
    if (error) return make_error("{}: {}", path, error.message());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  if (files.empty()) return make_error("no case files (*.toml, *.lua) in {}", fmt::join(paths, ", "));
  return files;
}

}  // namespace graft
