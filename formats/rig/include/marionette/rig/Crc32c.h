// Marionette — CRC-32C (Castagnoli), the checksum of the `.mrig` format.
//
// Parameters (Rocksoft model, "CRC-32/ISCSI"): width 32, polynomial 0x1EDC6F41 (reflected 0x82F63B78),
// init 0xFFFFFFFF, reflected input and output, xor-out 0xFFFFFFFF; check value of the ASCII bytes
// "123456789" is 0xE3069283. The same CRC as SSE4.2's crc32 instruction, iSCSI, ext4 and Btrfs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace marionette::rig {

/// CRC-32C of `bytes`. Chains: crc32c(b, crc32c(a)) == crc32c(a followed by b); crc32c({}) == 0.
/// Uses the SSE4.2 instruction when the CPU has it, else a table (slicing-by-8); both give the same value.
std::uint32_t crc32c(std::span<const std::byte> bytes, std::uint32_t previous = 0);

/// The table implementation alone (for tests that compare it with the hardware path).
std::uint32_t crc32cPortable(std::span<const std::byte> bytes, std::uint32_t previous = 0);

} // namespace marionette::rig
