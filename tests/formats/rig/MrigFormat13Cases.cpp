#include "MrigFormat13Cases.h"

#include <limits>

namespace marionette::test {

std::vector<CorpusCase> format13Cases()
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const RawRig sample = rawSample13();
    // built(): chunk layout STRS, NAME, SETT, PART, STCK, ANGL, TRIS, ANGU, PINS, SHAP, BONE, BIND, SOLV, ANGF,
    // PINF, BNDD, then DRVP at table index 16 and DRPT at 17. The sample has 13 sticks and 2 triangles.
    SampleCases c(rawSample13);

    // ---- valid
    c.raw("good_v13_sample_handbuilt.mrig", "OK", [](RawRig&) {});
    c.built("good_v13_larger_records.mrig", "OK", [&](MrigBuilder& b) { // a later 1.x appending fields
        b.minor = 7;
        resizeChunk(b, mrig::kTagDriveProfiles, *sample.driveProfiles, 56);
        resizeChunk(b, mrig::kTagDriveParts, *sample.driveParts, 40);
    });
    c.raw("good_v13_no_profiles.mrig", "OK", [](RawRig& r) { // both chunks present and empty
        r.driveProfiles->clear();
        r.driveParts->clear();
    });

    // ---- chunk structure
    c.built("bad_v13_drvp_record_size_44.mrig", "DRVP: record size 44 is smaller than 48, the size in format 1.3",
            [&](MrigBuilder& b) { resizeChunk(b, mrig::kTagDriveProfiles, *sample.driveProfiles, 44); });
    c.built("bad_v13_drpt_record_size_30.mrig", "DRPT: record size 30 is smaller than 36, the size in format 1.3",
            [&](MrigBuilder& b) { resizeChunk(b, mrig::kTagDriveParts, *sample.driveParts, 30); });
    c.built("bad_v13_drvp_truncated.mrig", "chunk table[16] 'DRVP': size 60 is not count 2 x record size 48",
            [](MrigBuilder& b) { b.find(mrig::kTagDriveProfiles)->payload.resize(60); });
    c.built("bad_v13_drvp_duplicate.mrig", "chunk table[18] 'DRVP': duplicate chunk (first at chunk table[16])",
            [](MrigBuilder& b) { b.chunks.push_back(*b.find(mrig::kTagDriveProfiles)); });

    // ---- the part ranges
    c.raw("bad_v13_parts_missing.mrig",
          "DRVP[0].partCount: 2 parts from DRPT[0] run past the end of DRPT (1 records)",
          [](RawRig& r) { r.driveParts->pop_back(); });
    c.raw("bad_v13_parts_without_drpt.mrig",
          "DRVP[0].partCount: 2 parts from DRPT[0] run past the end of DRPT (0 records)",
          [](RawRig& r) { r.driveParts.reset(); });
    c.raw("bad_v13_parts_unowned.mrig", "DRPT: 3 records, the drive profiles own 2",
          [](RawRig& r) { r.driveParts->push_back((*r.driveParts)[0]); });
    c.raw("bad_v13_parts_without_drvp.mrig", "DRPT: 2 records, the drive profiles own 0",
          [](RawRig& r) { r.driveProfiles.reset(); });
    c.raw("bad_v13_first_part_gap.mrig",
          "DRVP[1].firstPart: 3, expected 2 (each profile's parts follow the previous profile's in DRPT)",
          [](RawRig& r) { (*r.driveProfiles)[1].firstPart = 3; });
    c.raw("bad_v13_first_part_overlap.mrig",
          "DRVP[0].firstPart: 1, expected 0 (each profile's parts follow the previous profile's in DRPT)",
          [](RawRig& r) { (*r.driveProfiles)[0].firstPart = 1; });
    c.raw("bad_v13_part_count_huge.mrig",
          "DRVP[0].partCount: 4294967295 parts from DRPT[0] run past the end of DRPT (2 records)",
          [](RawRig& r) { (*r.driveProfiles)[0].partCount = 0xFFFFFFFFu; });

    // ---- record checks
    c.raw("bad_v13_name_outside.mrig", "DRVP[1].name: string at offset 9999, length 4 runs past the end of the string table (198 bytes)",
          [](RawRig& r) { (*r.driveProfiles)[1].name.offset = 9999; });
    c.raw("bad_v13_part_kind.mrig", "DRVP[0].parts[1].kind: unknown value 7 (0 to 1)",
          [](RawRig& r) { (*r.driveParts)[1].kind = 7; });
    c.raw("bad_v13_part_triangle_index.mrig", "DRVP[0].parts[0].index: index 2 out of range (2 triangles)",
          [](RawRig& r) { (*r.driveParts)[0].index = 2; });
    c.raw("bad_v13_part_stick_index.mrig", "DRVP[0].parts[1].index: index -1 out of range (13 sticks)",
          [](RawRig& r) { (*r.driveParts)[1].index = -1; });
    c.raw("bad_v13_defaults_nan.mrig", "DRVP[1].defaults.motorDamping: not a finite number (nan)",
          [=](RawRig& r) { (*r.driveProfiles)[1].defaults.motorDamping = nan; });
    c.raw("bad_v13_part_inf.mrig", "DRVP[0].parts[1].maxForce: not a finite number (inf)",
          [=](RawRig& r) { (*r.driveParts)[1].gains.maxForce = inf; });
    c.raw("bad_v13_part_frequency_high.mrig", "DRVP[0].parts[0].motorFrequency: 60.5 outside [0, 60]",
          [](RawRig& r) { (*r.driveParts)[0].gains.motorFrequency = 60.5f; });
    c.raw("bad_v13_defaults_torque_negative.mrig", "DRVP[0].defaults.maxTorque: -1 outside [0, 1e+06]",
          [](RawRig& r) { (*r.driveProfiles)[0].defaults.maxTorque = -1.f; });
    c.raw("bad_v13_part_damping_high.mrig", "DRVP[0].parts[1].pinDamping: 10.25 outside [0, 10]",
          [](RawRig& r) { (*r.driveParts)[1].gains.pinDamping = 10.25f; });
    c.raw("bad_v13_kinematic_2.mrig", "DRVP[1].defaults.kinematic: 2 is not 0 or 1",
          [](RawRig& r) { (*r.driveProfiles)[1].defaults.kinematic = 2; });

    // ---- RigDescription::validate()
    c.raw("bad_validate_v13_name_empty.mrig", "driveProfiles[1]: a drive profile needs a name",
          [](RawRig& r) { (*r.driveProfiles)[1].name = {0, 0}; });
    c.raw("bad_validate_v13_name_twice.mrig", "driveProfiles[1] 'stagger': name used by driveProfiles[0] too",
          [](RawRig& r) { (*r.driveProfiles)[1].name = r.name("stagger"); });
    c.raw("bad_validate_v13_part_twice.mrig",
          "driveProfiles[0] 'stagger': parts[1].index: part listed twice (also parts[0])", [](RawRig& r) {
              (*r.driveParts)[1].kind = 0;
              (*r.driveParts)[1].index = 1;
          });
    return std::move(c.out);
}

} // namespace marionette::test
