#include "Text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>

namespace marionette::import::detail {

void appendPart(std::string& out, double v)
{
    if (std::isnan(v)) {
        out.append("nan");
        return;
    }
    if (std::isinf(v)) {
        out.append(v < 0 ? "-inf" : "inf");
        return;
    }
    std::array<char, 32> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::general, 7);
    out.append(buf.data(), r.ptr);
}

void appendPart(std::string& out, Vec3 v)
{
    out.push_back('(');
    appendPart(out, v.x);
    out.append(", ");
    appendPart(out, v.y);
    out.append(", ");
    appendPart(out, v.z);
    out.push_back(')');
}

std::string oneLine(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    bool space = false;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f || c == ' ') {
            space = !out.empty();
            continue;
        }
        if (space)
            out.push_back(' ');
        space = false;
        out.push_back(c);
        if (out.size() >= 400) {
            out.append("...");
            break;
        }
    }
    return out;
}

std::string toLower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string lowerExtension(const std::string& path)
{
    return toLower(std::filesystem::path(path).extension().string());
}

std::string named(const std::string& name)
{
    return name.empty() ? std::string("(unnamed)") : cat('\'', oneLine(name), '\'');
}

std::string nameList(const std::vector<std::string>& names)
{
    std::string out;
    const size_t shown = std::min<size_t>(names.size(), 5);
    for (size_t i = 0; i < shown; ++i)
        out.append(i ? ", " : "").append(names[i]);
    if (names.size() > shown)
        out.append(cat(" and ", names.size() - shown, " more"));
    return out;
}

} // namespace marionette::import::detail
