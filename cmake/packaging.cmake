# SPDX-License-Identifier: Apache-2.0
# The Debian package: `cpack -G DEB` in a build tree configured with
# CMAKE_INSTALL_PREFIX=/usr (the multiarch plugin directory, and the path the
# hooks.d file names, come from the prefix at configure time) packages what
# the install rules install, plus the site policy as a conffile. Depends is
# computed with dpkg-shlibdeps from the binaries; tests/scripts/package-test.sh
# checks the result.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME graft)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "graft maintainers <maintainers@users.noreply.a-seed-6446ac9b.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "declarative GPU access for OCI containers")
set(CPACK_PACKAGE_DESCRIPTION
    "graft gives containers access to the host's GPUs, declaratively: a site
policy in TOML, rules in Lua and mechanism plugins compose a per-container
plan that `graft plan` prints and the hook applies.
.
It reaches containers in four ways: as an OCI hook that podman and CRI-O
run from hooks.d; through graft-runtime, a runtime in front of runc that
Docker and containerd are configured to use; through a CDI spec that
`graft cdi generate` writes for podman, containerd, CRI-O and Docker; and,
with graft-nvidia-compat, through Docker's --gpus.")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)  # as Debian ships binaries; the build tree keeps its symbols
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "runc | crun")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# dpkg keeps a site's edits to a conffile across upgrades and removal; it is
# the graft package's (below).
file(WRITE ${PROJECT_BINARY_DIR}/debian/conffiles "${GRAFT_SYSCONF_DIR}/graft.toml\n")

# Debian's documentation files for every package: the copyright file and the
# changelog, gzipped as Debian installs it (-n: no name or time stamp, so the
# package is reproducible). The changelog's newest entry must be this version
# (tests/scripts/package-test.sh).
set(GRAFT_DEBIAN_DIR ${PROJECT_SOURCE_DIR}/cmake/debian)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/debian/changelog.gz
  COMMAND gzip -9nc ${GRAFT_DEBIAN_DIR}/changelog > ${PROJECT_BINARY_DIR}/debian/changelog.gz
  DEPENDS ${GRAFT_DEBIAN_DIR}/changelog
  VERBATIM)
add_custom_target(graft_debian_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog.gz)
install(FILES ${GRAFT_DEBIAN_DIR}/copyright ${PROJECT_BINARY_DIR}/debian/changelog.gz
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# graft-dev's, for the package only (hooks/CMakeLists.txt does the same for
# graft-nvidia-compat).
install(FILES ${GRAFT_DEBIAN_DIR}/copyright ${PROJECT_BINARY_DIR}/debian/changelog.gz
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/graft-dev COMPONENT dev EXCLUDE_FROM_ALL)

# Three packages. `graft`: every component but two, the site policy
# (EXCLUDE_FROM_ALL for `cmake --install`) included. `graft-nvidia-compat`:
# the nvidia-compat component, graft under the hook name Docker's --gpus
# looks up (hooks/CMakeLists.txt), which a site installs to opt in. It
# provides that name and conflicts with every package that ships the same
# file: NVIDIA's, and any other provider of the name (Debian policy 7.6.2).
get_cmake_property(CPACK_COMPONENTS_ALL COMPONENTS)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS OFF)
set(CPACK_DEBIAN_GRAFT_PACKAGE_NAME graft)
set(CPACK_DEBIAN_GRAFT_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
# The maintainer scripts (cmake/debian/): the graft-cdi-refresh units are
# enabled and started on install, stopped on removal; purge removes the CDI
# specs graft generated, and only those.
set(CPACK_DEBIAN_GRAFT_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/debian/conffiles
    ${GRAFT_DEBIAN_DIR}/postinst ${GRAFT_DEBIAN_DIR}/prerm ${GRAFT_DEBIAN_DIR}/postrm)
set(CPACK_DEBIAN_NVIDIA-COMPAT_PACKAGE_NAME graft-nvidia-compat)
set(CPACK_DEBIAN_NVIDIA-COMPAT_DESCRIPTION
    "Docker 20.10 to 29.1 run `nvidia-container-runtime-hook prestart` for a
container started with --gpus when a program of that name is on dockerd's
PATH at start-up. This package installs graft's entry point under that
name: it runs the graft installed beside it as `graft hook prestart` with
the site policy. Docker 29.2 and later run it when no program named
nvidia-cdi-hook is on dockerd's PATH, or when their CDI injection fails.")
set(CPACK_DEBIAN_NVIDIA-COMPAT_PACKAGE_DEPENDS "graft (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_NVIDIA-COMPAT_PACKAGE_PROVIDES nvidia-container-runtime-hook)
set(CPACK_DEBIAN_NVIDIA-COMPAT_PACKAGE_CONFLICTS "nvidia-container-toolkit, nvidia-container-runtime-hook")
set(CPACK_DEBIAN_NVIDIA-COMPAT_PACKAGE_RECOMMENDS "docker.io | docker-ce")
# `graft-dev`: the dev component, the plugin ABI header. The header is the
# ABI of this graft version, which loads the plugins built against it:
# Depends on it, and is of its architecture, as graft-nvidia-compat is.
set(CPACK_DEBIAN_DEV_PACKAGE_NAME graft-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION
    "The plain-C header graft/plugin.h, the versioned ABI between graft and
its mechanism plugins: what a plugin built outside graft's tree compiles
against. graft loads such a plugin from its plugin directory.")
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "graft (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS "")  # not graft's runc | crun: it builds plugins
foreach(component IN LISTS CPACK_COMPONENTS_ALL)
  string(TOUPPER ${component} upper)
  if(component STREQUAL "nvidia-compat" OR component STREQUAL "dev")
    set(CPACK_COMPONENT_${upper}_GROUP ${component})
  else()
    set(CPACK_COMPONENT_${upper}_GROUP graft)
  endif()
endforeach()
include(CPack)
