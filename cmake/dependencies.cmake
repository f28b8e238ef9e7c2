# SPDX-License-Identifier: Apache-2.0
# What graft builds against, all from Debian packages, and how it links them.
#
# The hook runs on the start path of every GPU container, and most of a short
# graft process used to be the dynamic linker: loading libstdc++, Lua, toml++,
# spdlog, fmt and yaml-cpp and resolving thousands of symbols
# (docs/performance.md). With GRAFT_STATIC_LIBS (the default) the programs
# and plugins take what Debian ships as static archives (libstdc++, libgcc,
# Lua, yaml-cpp), compile fmt's library part once from its headers
# (base/src/fmt_implementation.cpp) and toml++'s (core/src/policy/
# toml_implementation.cpp), and use spdlog header-only (five files include
# it), so a graft process maps only glibc. Packagers who must link shared
# libraries turn it off; nothing else changes.
#
# Every target links these names, never the packages' own targets:
#   graft::fmt graft::spdlog graft::toml graft::lua graft::yaml_cpp
# and graft_link_static_runtime(<target>) on every program and plugin.
# The sanitizer and fuzz trees link the shared libraries: their runtimes
# want the shared libstdc++, and they are built for checking, not speed.
set(GRAFT_STATIC_LIBS_DEFAULT ON)
if(GRAFT_SANITIZE OR GRAFT_FUZZ)
  set(GRAFT_STATIC_LIBS_DEFAULT OFF)
endif()
option(GRAFT_STATIC_LIBS
  "Link libstdc++, Lua, yaml-cpp and fmt statically and spdlog and toml++ header-only (start-up cost)"
  ${GRAFT_STATIC_LIBS_DEFAULT})

find_package(PkgConfig REQUIRED)
pkg_check_modules(LUA REQUIRED IMPORTED_TARGET lua5.4)
pkg_check_modules(YAMLCPP REQUIRED IMPORTED_TARGET yaml-cpp)  # reading CDI specs in YAML
find_package(tomlplusplus REQUIRED)
find_package(spdlog REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Threads REQUIRED)

add_library(graft_dep_fmt INTERFACE)
add_library(graft_dep_spdlog INTERFACE)
add_library(graft_dep_toml INTERFACE)
add_library(graft_dep_lua INTERFACE)
add_library(graft_dep_yaml_cpp INTERFACE)
add_library(graft::fmt ALIAS graft_dep_fmt)
add_library(graft::spdlog ALIAS graft_dep_spdlog)
add_library(graft::toml ALIAS graft_dep_toml)
add_library(graft::lua ALIAS graft_dep_lua)
add_library(graft::yaml_cpp ALIAS graft_dep_yaml_cpp)

if(GRAFT_STATIC_LIBS)
  function(graft_static_archive out name)
    find_library(${out} NAMES lib${name}.a REQUIRED NO_CACHE)
    set(${out} ${${out}} PARENT_SCOPE)
  endfunction()
  graft_static_archive(GRAFT_LUA_ARCHIVE lua5.4)
  graft_static_archive(GRAFT_YAMLCPP_ARCHIVE yaml-cpp)

  # fmt's compiled part is built once, in graft_base (base/src/fmt_implementation.cpp).
  get_target_property(fmt_includes fmt::fmt INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(graft_dep_fmt SYSTEM INTERFACE ${fmt_includes})
  target_compile_definitions(graft_dep_fmt INTERFACE "FMT_STATIC_THOUSANDS_SEPARATOR=','")
  # spdlog's own header-only target would link the shared fmt.
  get_target_property(spdlog_includes spdlog::spdlog_header_only INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(graft_dep_spdlog SYSTEM INTERFACE ${spdlog_includes})
  target_compile_definitions(graft_dep_spdlog INTERFACE SPDLOG_FMT_EXTERNAL)
  target_link_libraries(graft_dep_spdlog INTERFACE graft_dep_fmt Threads::Threads)
  # One core file defines TOML_IMPLEMENTATION (policy/toml_implementation.cpp).
  get_target_property(toml_includes tomlplusplus::tomlplusplus INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(graft_dep_toml SYSTEM INTERFACE ${toml_includes})
  target_compile_definitions(graft_dep_toml INTERFACE TOML_HEADER_ONLY=0)
  target_include_directories(graft_dep_lua SYSTEM INTERFACE ${LUA_INCLUDE_DIRS})
  target_link_libraries(graft_dep_lua INTERFACE ${GRAFT_LUA_ARCHIVE} m ${CMAKE_DL_LIBS})
  target_include_directories(graft_dep_yaml_cpp SYSTEM INTERFACE ${YAMLCPP_INCLUDE_DIRS})
  target_link_libraries(graft_dep_yaml_cpp INTERFACE ${GRAFT_YAMLCPP_ARCHIVE})
else()
  target_link_libraries(graft_dep_fmt INTERFACE fmt::fmt)
  target_link_libraries(graft_dep_spdlog INTERFACE spdlog::spdlog)
  target_link_libraries(graft_dep_toml INTERFACE tomlplusplus::tomlplusplus)
  target_link_libraries(graft_dep_lua INTERFACE PkgConfig::LUA)
  target_link_libraries(graft_dep_yaml_cpp INTERFACE PkgConfig::YAMLCPP)
endif()

# graft_link_static_runtime(<target>): libstdc++ and libgcc from their
# archives, so the program or plugin needs no C++ runtime from the system.
# Each plugin then carries its own copy; no C++ object crosses the plugin ABI
# (core/include/graft/plugin.h), so the copies never meet. The sanitizers
# need the shared runtime their own libraries were built against.
set(GRAFT_STATIC_CXX_RUNTIME OFF)
if(GRAFT_STATIC_LIBS AND NOT GRAFT_SANITIZE AND NOT GRAFT_FUZZ)
  set(GRAFT_STATIC_CXX_RUNTIME ON)
endif()
# --gc-sections drops what the archives bring that nothing calls (libstdc++ is
# built with a section per function): less to map and fault in per process.
function(graft_link_static_runtime target)
  if(GRAFT_STATIC_CXX_RUNTIME)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc LINKER:--gc-sections)
  endif()
endfunction()
