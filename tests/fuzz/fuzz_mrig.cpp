// libFuzzer target for the .mrig reader (formats/rig/FORMAT.md). Built by tests/fuzz/CMakeLists.txt with
// clang -fsanitize=fuzzer,address,undefined; run by the ctest fuzz_mrig_smoke (run.sh).
//
// Each input is read twice: as given, and with every checksum recomputed (fixChecksums) so mutations of
// fields reach the structural and record checks instead of stopping at a checksum. Besides "no crash, no
// out-of-bounds access, no undefined behaviour, no oversized allocation" (the sanitizers and
// -malloc_limit_mb), it checks properties and traps when one fails:
//   - every failure has a message; readMrigInfo accepts whatever MrigView accepts;
//   - an accepted view's indices are all in range and its string references inside the table;
//   - whatever readMrig accepts passes RigDescription::validate(), writes again, and reads back identical.
#include "MrigTestSupport.h"

#include "marionette/rig/Mrig.h"

#include <cstddef>
#include <cstdint>
#include <span>

using namespace marionette;
using namespace marionette::rig;

namespace {

void require(bool condition)
{
    if (!condition)
        __builtin_trap();
}

template <typename Span>
bool allIn(const Span& s, std::size_t count, std::int32_t Span::element_type::*field)
{
    for (const auto& r : s)
        if (r.*field < 0 || std::size_t(r.*field) >= count)
            return false;
    return true;
}

void checkView(const MrigView& v)
{
    const std::size_t np = v.particles().size();
    require(allIn(v.sticks(), np, &mrig::StickRecord::particleA) && allIn(v.sticks(), np, &mrig::StickRecord::particleB));
    require(allIn(v.angles(), np, &mrig::AngleRecord::center));
    require(v.bendDamping().empty() || v.bendDamping().size() == v.angles().size());
    // Drive profiles own consecutive runs of DRPT that cover it exactly; parts index triangles or sticks.
    std::size_t owned = 0;
    for (const auto& p : v.driveProfiles()) {
        require(p.firstPart == owned && p.partCount <= v.driveParts().size() - owned);
        owned += p.partCount;
    }
    require(owned == v.driveParts().size());
    for (const auto& q : v.driveParts())
        require(q.index >= 0 && std::size_t(q.index) < (q.kind == 0 ? v.triangles().size() : v.sticks().size()));
    require(allIn(v.pins(), np, &mrig::PinRecord::particle));
    require(allIn(v.angular(), v.triangles().size(), &mrig::AngularRecord::triangleA));
    require(allIn(v.bindings(), v.bones().size(), &mrig::BindingRecord::bone));
    for (const auto& t : v.triangles())
        for (std::int32_t p : t.p)
            require(p >= 0 && std::size_t(p) < np);
    std::size_t names = v.rigName().size();
    for (const auto& p : v.particles())
        names += v.string(p.name).size();
    for (const auto& b : v.bones())
        require(b.parent >= -1 && b.parent < std::int32_t(&b - v.bones().data()));
    require(v.info().particles == np);
    (void)names;
}

void exercise(std::span<const std::byte> bytes)
{
    std::string error;
    MrigInfo info;
    const bool infoOk = readMrigInfo(bytes, info, &error);
    require(infoOk || !error.empty());

    MrigView view;
    error.clear();
    const bool viewOk = view.open(bytes, &error);
    require(viewOk || !error.empty());
    if (viewOk) {
        require(infoOk);
        checkView(view);
    }

    RigDescription rig;
    error.clear();
    const bool ok = readMrig(bytes, rig, &error);
    require(ok || !error.empty());
    if (!ok)
        return;
    require(viewOk);
    require(rig.validate().empty());
    const std::vector<std::byte> again = writeMrig(rig, &error);
    require(!again.empty());
    RigDescription back;
    require(readMrig(again, back, &error));
    require(test::diffRigs(rig, back).empty());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
    exercise(bytes);
    if (size >= sizeof(mrig::FileHeader)) {
        test::Bytes fixed(bytes.begin(), bytes.end());
        test::fixChecksums(fixed);
        exercise(fixed);
    }
    return 0;
}
