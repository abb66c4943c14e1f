// Marionette — reading and writing the `.mrig` binary rig (the specification is formats/rig/FORMAT.md).
//
// The product's contract with every game that ships a rig. Writing validates the description first and
// refuses an invalid one; reading accepts ANY bytes: it never reads out of bounds, never allocates more
// than the input's size justifies, never crashes or hangs, and reports the first problem as a one-line
// message naming the chunk and field, e.g. `STCK[12].particleB: index 40 out of range (31 particles)`.
// File functions prefix their messages with the path: `rigs/hero.mrig: STCK[12].particleB: ...`.
//
// No Qt, no dependency beyond the standard library: games link formats/rig alone. For the zero-copy
// typed view of a file see MrigView.h.
#pragma once

#include "marionette/rig/MrigView.h"
#include "marionette/rig/RigDescription.h"
#include "marionette/rig/Validation.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace marionette::rig {

/// Serialises `rig` as a format 1.3 file. Runs rig.validate() first; an invalid rig gives an empty vector
/// and *error (when not null) set to validate()'s message. The result always reads back and reproduces
/// every field bit for bit: the writer checks it with the reader, and refuses a rig the reader would
/// refuse though validate() accepts it (a non-finite float in a field validate() does not look at):
/// `cannot be written as .mrig: SHAP[0].localRotation.y: not a finite number (nan)`.
std::vector<std::byte> writeMrig(const RigDescription& rig, std::string* error = nullptr);
/// writeMrig() of a description already validated (rig::validated()): the same bytes and read-back check,
/// without validating again. Fails only as the read-back check or the size limit make it fail.
std::vector<std::byte> writeMrig(const Validated& rig, std::string* error = nullptr);

/// Writes `rig` to `path` atomically: a temporary file in the same folder, flushed and synced, then renamed
/// over `path`. On any failure returns false with *error = "path: reason"; an existing file at `path` is
/// left untouched and the temporary file removed.
bool saveMrig(const std::string& path, const RigDescription& rig, std::string* error);

/// Validates `bytes` as MrigView::open() does, converts them into `out` and runs out.validate(). Returns
/// false with *error set on failure (`out` is then unspecified). Bounds: allocations are proportional to
/// bytes.size().
bool readMrig(std::span<const std::byte> bytes, RigDescription& out, std::string* error);
/// readMrig() returning the proof that `out` passed validation (it refers to `out`), for a caller that goes
/// on to build or write the rig (runtime::Rig::loadFromMemory()) without validating it again; nullopt on
/// failure. The checks are readMrig()'s, each run once.
std::optional<Validated> readValidatedMrig(std::span<const std::byte> bytes, RigDescription& out, std::string* error);

/// readMrig() of the file at `path` (one read into an aligned buffer). Errors start with `path: `.
bool loadMrig(const std::string& path, RigDescription& out, std::string* error);
/// loadMrig() returning the proof of validation, as readValidatedMrig().
std::optional<Validated> loadValidatedMrig(const std::string& path, RigDescription& out, std::string* error);

/// Header and chunk-table summary of `bytes` without looking at the payloads: checks the magic, version,
/// header checksum, file size, flags and chunk-table checksum, then counts the records of each known
/// chunk. Cheap (no payload checksums or record checks); a file that passes here may still be refused by
/// readMrig(). Returns false with *error set on failure.
bool readMrigInfo(std::span<const std::byte> bytes, MrigInfo& out, std::string* error);

/// readMrigInfo() of the file at `path`. Errors start with `path: `.
bool loadMrigInfo(const std::string& path, MrigInfo& out, std::string* error);

} // namespace marionette::rig
