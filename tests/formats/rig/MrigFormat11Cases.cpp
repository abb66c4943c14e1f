#include "MrigFormat11Cases.h"

#include <functional>
#include <limits>

namespace marionette::test {

namespace {

/// Cases of rawSample11() (built(): chunk layout STRS, NAME, SETT, PART, STCK, ANGL, TRIS, ANGU, PINS, SHAP,
/// BONE, BIND, then SOLV at table index 12, ANGF at 13, PINF at 14), and legacy() ones of rawSample() (format
/// 1.0: no SOLV, ANGF or PINF, so the legacy fields are migrated).
class Cases : public SampleCases {
public:
    Cases() : SampleCases(rawSample11) {}

    void legacy(const std::string& file, const std::string& expected, const std::function<void(RawRig&)>& change)
    {
        RawRig r = rawSample();
        change(r);
        out.push_back({file, expected, builderFor(r).build()});
    }
};

} // namespace

std::vector<CorpusCase> format11Cases()
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const RawRig sample = rawSample11();
    Cases c;

    // ---- valid
    c.raw("good_v11_sample_handbuilt.mrig", "OK", [](RawRig&) {});
    c.built("good_v11_larger_records.mrig", "OK", [&](MrigBuilder& b) { // a later 1.x appending fields
        b.minor = 4;
        resizeChunk(b, mrig::kTagSolver, std::vector<mrig::SolverRecord>{*sample.solver}, 32);
        resizeChunk(b, mrig::kTagAngularFriction, *sample.angularFriction, 12);
        resizeChunk(b, mrig::kTagPinStiffness, *sample.pinStiffness, 8);
    });

    // ---- SOLV: record checks
    c.raw("bad_v11_solv_solver_7.mrig", "SOLV.solver: unknown value 7 (0 to 3)", [](RawRig& r) { r.solver->solver = 7; });
    c.raw("bad_v11_solv_damping_nan.mrig", "SOLV.damping: not a finite number (nan)",
          [=](RawRig& r) { r.solver->damping = nan; });
    c.raw("bad_v11_solv_static_friction_inf.mrig", "SOLV.staticFrictionSpeed: not a finite number (inf)",
          [=](RawRig& r) { r.solver->staticFrictionSpeed = inf; });
    // ---- SOLV: chunk structure
    c.built("bad_v11_solv_record_size_20.mrig", "SOLV: record size 20 is smaller than 24, the size in format 1.1",
            [&](MrigBuilder& b) { resizeChunk(b, mrig::kTagSolver, std::vector<mrig::SolverRecord>{*sample.solver}, 20); });
    c.built("bad_v11_solv_size_not_count_x_record.mrig", "chunk table[12] 'SOLV': size 20 is not count 1 x record size 24",
            [](MrigBuilder& b) { b.find(mrig::kTagSolver)->payload.resize(20); });
    c.built("bad_v11_solv_count_2.mrig", "SOLV: 2 records, expected 1", [&](MrigBuilder& b) {
        resizeChunk(b, mrig::kTagSolver, std::vector<mrig::SolverRecord>{*sample.solver, *sample.solver}, 24);
    });
    c.built("bad_v11_solv_count_0.mrig", "SOLV: 0 records, expected 1",
            [](MrigBuilder& b) { resizeChunk(b, mrig::kTagSolver, std::vector<mrig::SolverRecord>{}, 24); });
    c.built("bad_v11_solv_duplicate.mrig", "chunk table[15] 'SOLV': duplicate chunk (first at chunk table[12])",
            [](MrigBuilder& b) { b.chunks.push_back(*b.find(mrig::kTagSolver)); });
    // ---- SOLV: ranges (RigDescription::validate())
    c.raw("bad_validate_v11_solv_substeps_0.mrig", "settings: substeps 0 outside [1, 64]",
          [](RawRig& r) { r.solver->substeps = 0; });
    c.raw("bad_validate_v11_solv_substeps_65.mrig", "settings: substeps 65 outside [1, 64]",
          [](RawRig& r) { r.solver->substeps = 65; });
    c.raw("bad_validate_v11_solv_iterations_0.mrig", "settings: iterations 0 outside [1, 64]",
          [](RawRig& r) { r.solver->iterations = 0; });
    c.raw("bad_validate_v11_solv_iterations_huge.mrig", "settings: iterations 4294967295 outside [1, 64]",
          [](RawRig& r) { r.solver->iterations = 0xFFFFFFFFu; });
    c.raw("bad_validate_v11_solv_damping_negative.mrig", "settings: damping -1 outside [0, 100]",
          [](RawRig& r) { r.solver->damping = -1.f; });
    c.raw("bad_validate_v11_solv_damping_large.mrig", "settings: damping 100.5 outside [0, 100]",
          [](RawRig& r) { r.solver->damping = 100.5f; });
    c.raw("bad_validate_v11_solv_static_friction_negative.mrig", "settings: staticFrictionSpeed -0.25 outside [0, 100]",
          [](RawRig& r) { r.solver->staticFrictionSpeed = -0.25f; });

    // ---- ANGF
    c.built("bad_v11_angf_count_2.mrig", "ANGF: 2 records, expected one per angular constraint (1)", [&](MrigBuilder& b) {
        resizeChunk(b, mrig::kTagAngularFriction, std::vector<mrig::AngularFrictionRecord>{{1.f, 0.f}, {2.f, 0.f}}, 8);
    });
    c.built("bad_v11_angf_count_0.mrig", "ANGF: 0 records, expected one per angular constraint (1)",
            [](MrigBuilder& b) { resizeChunk(b, mrig::kTagAngularFriction, std::vector<mrig::AngularFrictionRecord>{}, 8); });
    c.built("bad_v11_angf_record_size_4.mrig", "ANGF: record size 4 is smaller than 8, the size in format 1.1",
            [&](MrigBuilder& b) { resizeChunk(b, mrig::kTagAngularFriction, *sample.angularFriction, 4); });
    c.raw("bad_v11_angf_damping_nan.mrig", "ANGF[0].damping: not a finite number (nan)",
          [=](RawRig& r) { (*r.angularFriction)[0].damping = nan; });
    c.raw("bad_v11_angf_static_friction_nan.mrig", "ANGF[0].staticFrictionSpeed: not a finite number (nan)",
          [=](RawRig& r) { (*r.angularFriction)[0].staticFrictionSpeed = nan; });
    c.raw("bad_validate_v11_angf_damping_negative.mrig", "angular[0] 'joint': damping -0.5 outside [0, 1000]",
          [](RawRig& r) { (*r.angularFriction)[0].damping = -0.5f; });
    c.raw("bad_validate_v11_angf_damping_large.mrig", "angular[0] 'joint': damping 1001 outside [0, 1000]",
          [](RawRig& r) { (*r.angularFriction)[0].damping = 1001.f; });
    c.raw("bad_validate_v11_angf_static_friction_large.mrig", "angular[0] 'joint': staticFrictionSpeed 250 outside [0, 100]",
          [](RawRig& r) { (*r.angularFriction)[0].staticFrictionSpeed = 250.f; });

    // ---- PINF
    c.built("bad_v11_pinf_count_2.mrig", "PINF: 2 records, expected one per pin (1)", [](MrigBuilder& b) {
        resizeChunk(b, mrig::kTagPinStiffness, std::vector<mrig::PinStiffnessRecord>{{0.5f}, {0.5f}}, 4);
    });
    c.built("bad_v11_pinf_count_0.mrig", "PINF: 0 records, expected one per pin (1)",
            [](MrigBuilder& b) { resizeChunk(b, mrig::kTagPinStiffness, std::vector<mrig::PinStiffnessRecord>{}, 4); });
    c.raw("bad_v11_pinf_stiffness_nan.mrig", "PINF[0].stiffness: not a finite number (nan)",
          [=](RawRig& r) { (*r.pinStiffness)[0].stiffness = nan; });
    c.raw("bad_validate_v11_pinf_stiffness_0.mrig", "pins[0] 'pin': stiffness 0 outside (0, 1]",
          [](RawRig& r) { (*r.pinStiffness)[0].stiffness = 0.f; });
    c.raw("bad_validate_v11_pinf_stiffness_large.mrig", "pins[0] 'pin': stiffness 1.5 outside (0, 1]",
          [](RawRig& r) { (*r.pinStiffness)[0].stiffness = 1.5f; });

    // ---- legacy fields a 1.1 reader migrates (no SOLV/ANGF/PINF) keep format 1.0's ranges and messages
    c.legacy("bad_validate_v11_legacy_drag.mrig", "settings: drag 5 outside [0, 0.99]", [](RawRig& r) { r.settings.drag = 5.f; });
    c.legacy("bad_validate_v11_legacy_static_friction.mrig", "settings: staticFriction -1 outside [0, 10]",
             [](RawRig& r) { r.settings.staticFriction = -1.f; });
    c.legacy("bad_validate_v11_legacy_dynamic_friction.mrig", "angular[0] 'joint': dynamicFriction 1 outside [0, 0.999]",
             [](RawRig& r) { r.angular[0].dynamicFriction = 1.f; });
    c.legacy("bad_validate_v11_legacy_static_friction_angle.mrig",
             "angular[0] 'joint': staticFrictionAngle 4 outside [0, 3.14159]",
             [](RawRig& r) { r.angular[0].staticFrictionAngle = 4.f; });
    c.legacy("bad_validate_v11_legacy_pin_stiffness.mrig", "pins[0] 'pin': stiffness 0 outside (0, 1]",
             [](RawRig& r) { r.pins[0].stiffness = 0.f; });
    return std::move(c.out);
}

} // namespace marionette::test
