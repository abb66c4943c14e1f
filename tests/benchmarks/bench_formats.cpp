// Marionette file format benchmarks (Google Benchmark): loading a `.mrig` rig (formats/rig/FORMAT.md).
//
//   BM_MrigViewOpen/<rig>    MrigView::open from memory: one aligned copy, validation, typed spans
//   BM_MrigRead/<rig>        readMrig from memory: the above plus a RigDescription and validate()
//   BM_MrigViewLoad/<rig>    MrigView::load from a file (one read; the file is in the page cache)
//   BM_MrigLoad/<rig>        loadMrig from a file into a RigDescription
//   BM_MrigInfo/<rig>        readMrigInfo: header and chunk table only
//   BM_MrigWrite/<rig>       writeMrig (validate, serialise, read-back check)
// Rigs: 0 = the procedural humanoid (~9 KB), 1 = a 64×64 cloth (~0.7 MB). Throughput is the file size.
// Nothing here asserts on timings; bench_formats_smoke only proves the suite builds and runs.

#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using namespace marionette;

struct Fixture {
    rig::RigDescription rig;
    std::vector<std::byte> bytes;
    std::string path;
};

const Fixture& fixture(std::int64_t which)
{
    static Fixture f[2];
    Fixture& x = f[which];
    if (x.bytes.empty()) {
        x.rig = which == 0 ? runtime::makeHumanoid() : runtime::makeCloth(64, 64, 0.02f);
        std::string error;
        x.bytes = rig::writeMrig(x.rig, &error);
        x.path = (std::filesystem::temp_directory_path() /
                  ("bench_formats_" + std::to_string(which) + "_" + std::to_string(std::uintptr_t(&x)) + ".mrig"))
                     .string();
        if (x.bytes.empty() || !rig::saveMrig(x.path, x.rig, &error))
            std::fprintf(stderr, "bench_formats: %s\n", error.c_str());
    }
    return x;
}

void removeFiles()
{
    for (std::int64_t i = 0; i < 2; ++i) {
        std::error_code ec;
        std::filesystem::remove(fixture(i).path, ec);
    }
}

void finish(benchmark::State& state, const Fixture& f, bool ok, const std::string& error)
{
    if (!ok)
        state.SkipWithError(error.c_str());
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(f.bytes.size()));
    state.counters["file_bytes"] = double(f.bytes.size());
}

void BM_MrigViewOpen(benchmark::State& state)
{
    const Fixture& f = fixture(state.range(0));
    std::string error;
    bool ok = true;
    for (auto _ : state) {
        rig::MrigView view;
        ok = view.open(f.bytes, &error) && ok;
        benchmark::DoNotOptimize(view.particles().data());
    }
    finish(state, f, ok, error);
}

void BM_MrigRead(benchmark::State& state)
{
    const Fixture& f = fixture(state.range(0));
    std::string error;
    bool ok = true;
    for (auto _ : state) {
        rig::RigDescription d;
        ok = rig::readMrig(f.bytes, d, &error) && ok;
        benchmark::DoNotOptimize(d.particles.data());
    }
    finish(state, f, ok, error);
}

void BM_MrigViewLoad(benchmark::State& state)
{
    const Fixture& f = fixture(state.range(0));
    std::string error;
    bool ok = true;
    for (auto _ : state) {
        rig::MrigView view;
        ok = view.load(f.path, &error) && ok;
        benchmark::DoNotOptimize(view.particles().data());
    }
    finish(state, f, ok, error);
}

void BM_MrigLoad(benchmark::State& state)
{
    const Fixture& f = fixture(state.range(0));
    std::string error;
    bool ok = true;
    for (auto _ : state) {
        rig::RigDescription d;
        ok = rig::loadMrig(f.path, d, &error) && ok;
        benchmark::DoNotOptimize(d.particles.data());
    }
    finish(state, f, ok, error);
}

void BM_MrigInfo(benchmark::State& state)
{
    const Fixture& f = fixture(state.range(0));
    std::string error;
    bool ok = true;
    for (auto _ : state) {
        rig::MrigInfo info;
        ok = rig::readMrigInfo(f.bytes, info, &error) && ok;
        benchmark::DoNotOptimize(info.particles);
    }
    finish(state, f, ok, error);
}

void BM_MrigWrite(benchmark::State& state)
{
    const Fixture& f = fixture(state.range(0));
    std::string error;
    bool ok = true;
    for (auto _ : state) {
        const std::vector<std::byte> b = rig::writeMrig(f.rig, &error);
        ok = !b.empty() && ok;
        benchmark::DoNotOptimize(b.data());
    }
    finish(state, f, ok, error);
}

BENCHMARK(BM_MrigViewOpen)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MrigRead)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MrigViewLoad)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MrigLoad)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MrigInfo)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MrigWrite)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

} // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    removeFiles();
    return 0;
}
