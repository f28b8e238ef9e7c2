// SPDX-License-Identifier: Apache-2.0
// fmt's compiled part, built once into graft_base when fmt is not linked as
// Debian's shared library (GRAFT_STATIC_LIBS, cmake/dependencies.cmake).
// Debian ships no static libfmt, and FMT_HEADER_ONLY would compile this part
// into every file that formats (seconds of compile each). The headers are
// the package's own: format-inl.h holds the definitions, and the templates
// the headers declare `extern` or leave undefined (Dragonbox's float
// conversion, the locale hooks) are instantiated here for char.
#ifdef GRAFT_FMT_COMPILED_HERE
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
#ifndef FMT_STATIC_THOUSANDS_SEPARATOR
template locale_ref::locale_ref(const std::locale& loc);
template auto locale_ref::get<std::locale>() const -> std::locale;
#endif
template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl(locale_ref) -> char;

}  // namespace detail
FMT_END_NAMESPACE
#endif
