#include "MrigFormat12Cases.h"

#include <limits>

namespace marionette::test {

std::vector<CorpusCase> format12Cases()
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const RawRig sample = rawSample12();
    using Bndd = std::vector<mrig::BendDampingRecord>;
    // built(): chunk layout STRS, NAME, SETT, PART, STCK, ANGL, TRIS, ANGU, PINS, SHAP, BONE, BIND, SOLV, ANGF,
    // PINF, then BNDD at table index 15.
    SampleCases c(rawSample12);

    // ---- valid
    c.raw("good_v12_sample_handbuilt.mrig", "OK", [](RawRig&) {});
    c.built("good_v12_larger_records.mrig", "OK", [&](MrigBuilder& b) { // a later 1.x appending fields
        b.minor = 5;
        resizeChunk(b, mrig::kTagBendDamping, *sample.bendDamping, 12);
    });
    c.raw("good_v12_no_angles.mrig", "OK", [](RawRig& r) { // no angle constraints: BNDD present and empty
        r.angles.clear();
        r.bendDamping->clear();
    });

    // ---- BNDD: chunk structure
    c.built("bad_v12_bndd_count_2.mrig", "BNDD: 2 records, expected one per angle constraint (1)",
            [](MrigBuilder& b) { resizeChunk(b, mrig::kTagBendDamping, Bndd{{1.f}, {2.f}}, 4); });
    c.built("bad_v12_bndd_count_0.mrig", "BNDD: 0 records, expected one per angle constraint (1)",
            [](MrigBuilder& b) { resizeChunk(b, mrig::kTagBendDamping, Bndd{}, 4); });
    c.raw("bad_v12_bndd_count_1_no_angles.mrig", "BNDD: 1 records, expected one per angle constraint (0)",
          [](RawRig& r) { r.angles.clear(); });
    c.built("bad_v12_bndd_record_size_2.mrig", "BNDD: record size 2 is smaller than 4, the size in format 1.2",
            [&](MrigBuilder& b) { resizeChunk(b, mrig::kTagBendDamping, *sample.bendDamping, 2); });
    c.built("bad_v12_bndd_record_size_6.mrig", "BNDD: record size 6 is not a multiple of 4",
            [&](MrigBuilder& b) { resizeChunk(b, mrig::kTagBendDamping, *sample.bendDamping, 6); });
    c.built("bad_v12_bndd_size_not_count_x_record.mrig", "chunk table[15] 'BNDD': size 2 is not count 1 x record size 4",
            [](MrigBuilder& b) { b.find(mrig::kTagBendDamping)->payload.resize(2); });
    c.built("bad_v12_bndd_duplicate.mrig", "chunk table[16] 'BNDD': duplicate chunk (first at chunk table[15])",
            [](MrigBuilder& b) { b.chunks.push_back(*b.find(mrig::kTagBendDamping)); });

    // ---- BNDD: record checks
    c.raw("bad_v12_bndd_damping_nan.mrig", "BNDD[0].damping: not a finite number (nan)",
          [=](RawRig& r) { (*r.bendDamping)[0].damping = nan; });
    c.raw("bad_v12_bndd_damping_inf.mrig", "BNDD[0].damping: not a finite number (inf)",
          [=](RawRig& r) { (*r.bendDamping)[0].damping = inf; });

    // ---- BNDD: range (RigDescription::validate())
    c.raw("bad_validate_v12_bndd_damping_negative.mrig", "angles[0] 'angle': damping -0.5 outside [0, 1000]",
          [](RawRig& r) { (*r.bendDamping)[0].damping = -0.5f; });
    c.raw("bad_validate_v12_bndd_damping_large.mrig", "angles[0] 'angle': damping 1000.5 outside [0, 1000]",
          [](RawRig& r) { (*r.bendDamping)[0].damping = 1000.5f; });
    return std::move(c.out);
}

} // namespace marionette::test
