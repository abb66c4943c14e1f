#include "marionette/rig/Crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>
#define MARIONETTE_CRC32C_SSE42 1
#endif

namespace marionette::rig {

namespace {

constexpr std::uint32_t kReflectedPolynomial = 0x82F63B78u;

/// kTables[k][b]: CRC of byte b followed by k zero bytes (slicing-by-8).
constexpr std::array<std::array<std::uint32_t, 256>, 8> makeTables()
{
    std::array<std::array<std::uint32_t, 256>, 8> t{};
    for (std::uint32_t b = 0; b < 256; ++b) {
        std::uint32_t c = b;
        for (int k = 0; k < 8; ++k)
            c = (c & 1u) ? (c >> 1) ^ kReflectedPolynomial : c >> 1;
        t[0][b] = c;
    }
    for (std::size_t k = 1; k < 8; ++k)
        for (std::size_t b = 0; b < 256; ++b)
            t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFFu];
    return t;
}

constexpr auto kTables = makeTables();

std::uint32_t updatePortable(std::uint32_t c, const unsigned char* p, std::size_t n)
{
    while (n >= 8) {
        std::uint32_t lo, hi;
        std::memcpy(&lo, p, 4);
        std::memcpy(&hi, p + 4, 4);
        lo ^= c;
        c = kTables[7][lo & 0xFFu] ^ kTables[6][(lo >> 8) & 0xFFu] ^ kTables[5][(lo >> 16) & 0xFFu] ^
            kTables[4][lo >> 24] ^ kTables[3][hi & 0xFFu] ^ kTables[2][(hi >> 8) & 0xFFu] ^
            kTables[1][(hi >> 16) & 0xFFu] ^ kTables[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n--)
        c = (c >> 8) ^ kTables[0][(c ^ *p++) & 0xFFu];
    return c;
}

#ifdef MARIONETTE_CRC32C_SSE42
__attribute__((target("sse4.2"))) std::uint32_t updateSse42(std::uint32_t c, const unsigned char* p, std::size_t n)
{
    std::uint64_t c64 = c;
    while (n >= 8) {
        std::uint64_t v;
        std::memcpy(&v, p, 8);
        c64 = _mm_crc32_u64(c64, v);
        p += 8;
        n -= 8;
    }
    std::uint32_t c32 = static_cast<std::uint32_t>(c64);
    while (n--)
        c32 = _mm_crc32_u8(c32, *p++);
    return c32;
}

bool haveSse42()
{
    static const bool have = __builtin_cpu_supports("sse4.2");
    return have;
}
#endif

} // namespace

std::uint32_t crc32cPortable(std::span<const std::byte> bytes, std::uint32_t previous)
{
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    return ~updatePortable(~previous, p, bytes.size());
}

std::uint32_t crc32c(std::span<const std::byte> bytes, std::uint32_t previous)
{
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
#ifdef MARIONETTE_CRC32C_SSE42
    if (haveSse42())
        return ~updateSse42(~previous, p, bytes.size());
#endif
    return ~updatePortable(~previous, p, bytes.size());
}

} // namespace marionette::rig
