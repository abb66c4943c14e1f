// Marionette — validating a rig description once per job.
//
// A job (export a rig, load a .mrig, build a runtime rig) validates its description once and passes the
// verdict on: validated() returns a Validated, the proof that a description passed, and the functions
// further down the job (writeMrig(), runtime::Rig::build(), editor::PluginHost::exportRig()) have overloads
// taking it that do not validate again. The geometric tests live here once, so the editor, the .mrig reader
// and writer and the runtime judge the same triangle the same way.
//
//     std::string error;
//     if (const std::optional<rig::Validated> valid = rig::validated(description, &error))
//         bytes = rig::writeMrig(*valid);            // no second validation
//     else
//         report(error);                             // validate()'s message
#pragma once

#include "marionette/rig/Finding.h"
#include "marionette/rig/RigDescription.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace marionette::rig {

class Validated;

/// Validates `rig` once (counted), stopping at the first error. Returns the proof, or nullopt with *error
/// (when not null) set to that error's message: what rig.validate() returns.
std::optional<Validated> validated(const RigDescription& rig, std::string* error = nullptr);
/// Validates `rig` once (counted) and sets `findings` to rig.findings(): every problem, in check order.
/// Returns the proof when none of them is an error, else nullopt.
std::optional<Validated> validated(const RigDescription& rig, std::vector<Finding>& findings);

/// The proof that a description passed validation. Only validated() makes one (and the .mrig readers,
/// which validate what they read through it). It refers to the description, it does not copy it: the
/// description must outlive the proof and must not change while the proof is used (copy the description
/// first when something else may edit it meanwhile).
class Validated {
public:
    const RigDescription& description() const { return *mRig; }

private:
    explicit Validated(const RigDescription& rig) : mRig(&rig) {}
    friend std::optional<Validated> validated(const RigDescription& rig, std::string* error);
    friend std::optional<Validated> validated(const RigDescription& rig, std::vector<Finding>& findings);

    const RigDescription* mRig;
};

/// True when the triangle p0, p1, p2 has no usable orientation, with e1 = p1 − p0, e2 = p2 − p0 and
/// s = max(|e1|², |e2|²) in binary32 arithmetic: NOT (|e1 × e2| > 1e-4 · s and s > 1e-12 and |e1|² > 1e-16).
/// The first is the shape test (nearly collinear: twice the area against the longer edge squared), the
/// others floors on size: any triangle it accepts has a frame (runtime::Rig::triangleFrame() succeeds).
/// The one degenerate-triangle test: RigDescription validation, the .mrig reader's record checks (FORMAT.md
/// TriangleRecord), the runtime and the editor all use it.
bool isDegenerateTriangle(Vec3 p0, Vec3 p1, Vec3 p2);

/// True when the tetrahedron p0..p3 is flat: NOT |(p1 − p0) · ((p2 − p0) × (p3 − p0))| > 1e-9 (binary32).
/// The one test for a box's embedding tetrahedron (RigDescription validation and the .mrig reader).
bool isFlatTetrahedron(Vec3 p0, Vec3 p1, Vec3 p2, Vec3 p3);

/// How many times RigDescription::findings() has run in this process (every validation goes through it:
/// validate(), validated(), the .mrig readers and writer, runtime::Rig::build()). Thread-safe; a test hook:
/// the difference around a job is the number of validations it made.
std::uint64_t validationCount();

} // namespace marionette::rig
