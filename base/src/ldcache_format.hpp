// SPDX-License-Identifier: Apache-2.0
// glibc's ld.so.cache layout (sysdeps/generic/dl-cache.h), as the reader
// (ldcache.cpp) and the writer (ldcache_write.cpp) both need it: one place
// for the magic, the offsets, the flags and the extension directory.
// Private to graft_base.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace graft::ldcache_format {

// The old format ("ld.so-1.7.0"), which ldconfig may still put first.
inline constexpr std::string_view kOldMagic = "ld.so-1.7.0";
inline constexpr std::size_t kOldHeaderSize = 16;  // magic padded to 12 bytes, u32 nlibs
inline constexpr std::size_t kOldEntrySize = 12;   // i32 flags, u32 key, u32 value

inline constexpr std::string_view kNewMagic = "glibc-ld.so.cache";
inline constexpr std::string_view kNewVersion = "1.1";
inline constexpr std::size_t kNewVersionOffset = 17;
inline constexpr std::size_t kNewNlibsOffset = 20;
inline constexpr std::size_t kNewStringsSizeOffset = 24;
inline constexpr std::size_t kNewFlagsOffset = 28;
inline constexpr std::size_t kNewExtensionOffset = 32;
inline constexpr std::size_t kNewHeaderSize = 48;
inline constexpr std::size_t kNewEntrySize = 24;  // i32 flags, u32 key, value, osversion, u64 hwcap
// glibc's ALIGN_CACHE: __alignof__(struct cache_file_new), 8 on 64-bit hosts.
inline constexpr std::size_t kNewHeaderAlign = 8;

// glibc >= 2.33 appends an extension directory (generator string, hwcaps)
// whose offsets count from the start of the file.
inline constexpr std::uint32_t kExtensionMagic = 0xeaa42174;
inline constexpr std::size_t kExtensionHeaderSize = 8;    // u32 magic, u32 count
inline constexpr std::size_t kExtensionSectionSize = 16;  // u32 tag, flags, offset, size
inline constexpr std::uint32_t kExtensionTagGenerator = 0;
inline constexpr std::uint32_t kExtensionTagHwcaps = 1;
// hwcap: this bit (with no other of the upper half but the ISA level's ten)
// says the lower 32 bits index the glibc-hwcaps section.
inline constexpr std::uint64_t kHwcapExtension = 1ULL << 62;
inline constexpr std::uint64_t kHwcapIsaLevelMask = 0x3ffULL << 32;

// Header flags, low two bits: byte order (0 = unset by older glibc).
inline constexpr std::uint8_t kEndianMask = 3;
inline constexpr std::uint8_t kEndianInvalid = 1;
inline constexpr std::uint8_t kEndianHost = std::endian::native == std::endian::little ? 2 : 3;

// Entry flags: the type in the low byte, the ABI in the next.
inline constexpr std::int32_t kTypeElfLibc6 = 0x0003;
inline constexpr std::int32_t kAbiMask = 0xff00;
#if defined(__x86_64__)
inline constexpr std::int32_t kNativeAbi = 0x0300;  // x86-64
inline constexpr std::int32_t kCompatAbi = 0x0000;  // i386
#elif defined(__aarch64__)
inline constexpr std::int32_t kNativeAbi = 0x0a00;  // aarch64
inline constexpr std::int32_t kCompatAbi = 0x0900;  // ARM hard-float
#else
inline constexpr std::int32_t kNativeAbi = -1;  // unknown build target: nothing matches
inline constexpr std::int32_t kCompatAbi = -1;
#endif

}  // namespace graft::ldcache_format
