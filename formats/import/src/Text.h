// Internal: building one-line messages. cat() appends instead of chaining operator+ (GCC 12 at -O3 warns
// falsely about overlapping copies in such chains, and warnings are errors).
#pragma once

#include "marionette/Math.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace marionette::import::detail {

inline void appendPart(std::string& out, std::string_view s) { out.append(s); }
inline void appendPart(std::string& out, const char* s) { out.append(s); }
inline void appendPart(std::string& out, const std::string& s) { out.append(s); }
inline void appendPart(std::string& out, char c) { out.push_back(c); }
template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char> && !std::is_same_v<T, bool>, int> = 0>
void appendPart(std::string& out, T v)
{
    out.append(std::to_string(v));
}
void appendPart(std::string& out, double v); ///< shortest round-trip text ("0.01", "-inf")
inline void appendPart(std::string& out, float v) { appendPart(out, double(v)); }
void appendPart(std::string& out, Vec3 v); ///< "(x, y, z)"

template <class... Parts>
std::string cat(const Parts&... parts)
{
    std::string out;
    (appendPart(out, parts), ...);
    return out;
}

/// "a, b, c, d, e and 4 more": at most five names.
std::string nameList(const std::vector<std::string>& names);
/// Control characters become spaces, runs of spaces collapse, ends are trimmed, at most 400 characters.
std::string oneLine(std::string_view text);
std::string toLower(std::string_view text);
/// ".gltf" for "/a/b/Box.GLTF"; empty when there is no extension.
std::string lowerExtension(const std::string& path);
/// 'name' in quotes, or a placeholder when the name is empty.
std::string named(const std::string& name);

} // namespace marionette::import::detail
