// Tests of marionette::runtime::ThreadPool: coverage of the index range, chunking, inline paths, nested
// calls, many back-to-back dispatches and clean shutdown. Assertions are on numbers only, never on timings.
#include "ThreadPool.h"

#include <QtTest/QtTest>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

using marionette::runtime::ThreadPool;

namespace {

// Per-thread counter on its own cache line (written only by the thread with that index).
struct alignas(64) PaddedCounter {
    std::uint64_t value = 0;
};

struct CoverageContext {
    std::vector<std::atomic<int>>* hits = nullptr;
    std::atomic<int>* badChunks = nullptr;
    std::size_t grain = 1;
    unsigned threadCount = 1;
};

void coverageFn(void* context, std::size_t begin, std::size_t end, unsigned threadIndex)
{
    auto& ctx = *static_cast<CoverageContext*>(context);
    if (begin >= end || end - begin > ctx.grain || begin % ctx.grain != 0 || threadIndex >= ctx.threadCount)
        ctx.badChunks->fetch_add(1, std::memory_order_relaxed);
    for (std::size_t i = begin; i < end && i < ctx.hits->size(); ++i)
        (*ctx.hits)[i].fetch_add(1, std::memory_order_relaxed);
}

// Runs the function-pointer overload over `count` items and returns how many indices were not hit exactly
// once plus how many chunks were malformed.
int coverageErrors(ThreadPool& pool, std::size_t count, std::size_t grain)
{
    std::vector<std::atomic<int>> hits(count);
    for (auto& h : hits)
        h.store(0);
    std::atomic<int> badChunks{0};
    CoverageContext ctx{&hits, &badChunks, grain == 0 ? 1 : grain, pool.threadCount()};
    pool.parallelFor(count, &coverageFn, &ctx, grain);
    int errors = badChunks.load();
    for (auto& h : hits)
        if (h.load() != 1)
            ++errors;
    return errors;
}

} // namespace

class TestThreadPool : public QObject {
    Q_OBJECT

private slots:
    void constructor_clampsThreadCount();
    void parallelFor_coversEveryIndexOnce();
    void parallelFor_lambdaOverload();
    void parallelFor_zeroCount();
    void parallelFor_singleThreadRunsInline();
    void parallelFor_singleChunkRunsInline();
    void parallelFor_threadIndicesAreExclusive();
    void parallelFor_manyDispatches();
    void parallelFor_wakesSleepingWorkers();
    void parallelFor_nestedCallRunsInline();
    void parallelFor_otherPoolFromInsideFn();
    void destructor_joinsIdleWorkers();
};

void TestThreadPool::constructor_clampsThreadCount()
{
    QCOMPARE(ThreadPool(0).threadCount(), 1u);
    QCOMPARE(ThreadPool(1).threadCount(), 1u);
    QCOMPARE(ThreadPool(3).threadCount(), 3u);
    QCOMPARE(ThreadPool(1000).threadCount(), ThreadPool::kMaxThreads);
    QCOMPARE(ThreadPool::kMaxThreads, 64u);
}

void TestThreadPool::parallelFor_coversEveryIndexOnce()
{
    const unsigned threadCounts[] = {1, 2, 3, 4, 8};
    const std::size_t counts[] = {1, 2, 3, 7, 64, 100, 1000, 4097};
    const std::size_t grains[] = {0, 1, 2, 3, 16, 1000, 5000};
    for (unsigned threads : threadCounts) {
        ThreadPool pool(threads);
        QCOMPARE(pool.threadCount(), threads);
        for (std::size_t count : counts)
            for (std::size_t grain : grains) {
                const int errors = coverageErrors(pool, count, grain);
                if (errors != 0)
                    qWarning("threads=%u count=%zu grain=%zu", threads, count, grain);
                QCOMPARE(errors, 0);
            }
    }
}

void TestThreadPool::parallelFor_lambdaOverload()
{
    ThreadPool pool(4);
    constexpr std::size_t kCount = 1000;
    std::vector<std::uint32_t> out(kCount, 0);
    // Mutable capturing lambda passed as an lvalue; writes disjoint elements.
    auto square = [&out](std::size_t begin, std::size_t end, unsigned) {
        for (std::size_t i = begin; i < end; ++i)
            out[i] = static_cast<std::uint32_t>(i * i);
    };
    pool.parallelFor(kCount, square, 7);
    std::uint64_t sum = 0;
    for (std::uint32_t v : out)
        sum += v;
    QCOMPARE(sum, std::uint64_t{(kCount - 1) * kCount * (2 * kCount - 1) / 6});

    // Const lvalue and rvalue callables compile and run too.
    std::atomic<std::size_t> items{0};
    const auto countItems = [&items](std::size_t begin, std::size_t end, unsigned) {
        items.fetch_add(end - begin, std::memory_order_relaxed);
    };
    pool.parallelFor(kCount, countItems);
    pool.parallelFor(
        kCount, [&items](std::size_t begin, std::size_t end, unsigned) { items.fetch_add(end - begin); }, 10);
    QCOMPARE(items.load(), 2 * kCount);
}

void TestThreadPool::parallelFor_zeroCount()
{
    for (unsigned threads : {1u, 4u}) {
        ThreadPool pool(threads);
        int calls = 0;
        pool.parallelFor(0, [&calls](std::size_t, std::size_t, unsigned) { ++calls; });
        pool.parallelFor(0, [&calls](std::size_t, std::size_t, unsigned) { ++calls; }, 0);
        pool.parallelFor(0, &coverageFn, nullptr, 4); // must not touch the (null) context
        pool.parallelFor(10, nullptr, nullptr);       // null function: nothing to run
        QCOMPARE(calls, 0);
        // The pool is still usable afterwards.
        QCOMPARE(coverageErrors(pool, 33, 2), 0);
    }
}

void TestThreadPool::parallelFor_singleThreadRunsInline()
{
    ThreadPool pool(1);
    QCOMPARE(pool.threadCount(), 1u);
    const std::thread::id caller = std::this_thread::get_id();
    int otherThread = 0, nonZeroIndex = 0, calls = 0;
    std::size_t items = 0, expectedBegin = 0, outOfOrder = 0;
    pool.parallelFor(
        100,
        [&](std::size_t begin, std::size_t end, unsigned threadIndex) {
            ++calls;
            if (std::this_thread::get_id() != caller)
                ++otherThread;
            if (threadIndex != 0)
                ++nonZeroIndex;
            if (begin != expectedBegin)
                ++outOfOrder;
            expectedBegin = end;
            items += end - begin;
        },
        8);
    QCOMPARE(otherThread, 0);
    QCOMPARE(nonZeroIndex, 0);
    QCOMPARE(outOfOrder, std::size_t{0});
    QCOMPARE(items, std::size_t{100});
    QCOMPARE(calls, 13); // ceil(100 / 8): chunked by grain even when inline
}

void TestThreadPool::parallelFor_singleChunkRunsInline()
{
    ThreadPool pool(4);
    const std::thread::id caller = std::this_thread::get_id();
    int onCaller = 0, calls = 0;
    unsigned index = 99;
    pool.parallelFor(
        5,
        [&](std::size_t begin, std::size_t end, unsigned threadIndex) {
            ++calls;
            if (std::this_thread::get_id() == caller && begin == 0 && end == 5)
                ++onCaller;
            index = threadIndex;
        },
        5);
    QCOMPARE(calls, 1);
    QCOMPARE(onCaller, 1);
    QCOMPARE(index, 0u);
}

void TestThreadPool::parallelFor_threadIndicesAreExclusive()
{
    // Per-thread scratch indexed by threadIndex needs no synchronisation: one thread per index at a time.
    // (Under ThreadSanitizer a shared index would be reported as a race.)
    ThreadPool pool(4);
    std::vector<PaddedCounter> perThread(pool.threadCount());
    std::atomic<int> badIndex{0};
    std::vector<std::thread::id> owner(pool.threadCount());
    std::atomic<int> ownerChanged{0};
    for (int round = 0; round < 200; ++round)
        pool.parallelFor(
            256,
            [&](std::size_t begin, std::size_t end, unsigned threadIndex) {
                if (threadIndex >= perThread.size()) {
                    badIndex.fetch_add(1);
                    return;
                }
                const std::thread::id self = std::this_thread::get_id();
                if (owner[threadIndex] == std::thread::id{})
                    owner[threadIndex] = self;
                else if (owner[threadIndex] != self)
                    ownerChanged.fetch_add(1);
                perThread[threadIndex].value += end - begin;
            },
            3);
    QCOMPARE(badIndex.load(), 0);
    QCOMPARE(ownerChanged.load(), 0); // an index always denotes the same thread
    QCOMPARE(owner[0], std::this_thread::get_id());
    std::uint64_t total = 0;
    for (const PaddedCounter& c : perThread)
        total += c.value;
    QCOMPARE(total, std::uint64_t{200 * 256});
}

void TestThreadPool::parallelFor_manyDispatches()
{
    constexpr int kDispatches = 10000;
    for (unsigned threads : {2u, 4u}) {
        ThreadPool pool(threads);
        QCOMPARE(pool.threadCount(), threads);
        std::vector<std::uint64_t> out(64, 0);
        std::vector<PaddedCounter> perThread(threads);
        std::uint64_t expectedItems = 0;
        int wrongSums = 0;
        for (int d = 0; d < kDispatches; ++d) {
            const std::size_t count = 1 + static_cast<std::size_t>(d % 64);
            const std::size_t grain = 1 + static_cast<std::size_t>(d % 5);
            const std::uint64_t k = static_cast<std::uint64_t>(d);
            pool.parallelFor(
                count,
                [&out, &perThread, k](std::size_t begin, std::size_t end, unsigned threadIndex) {
                    for (std::size_t i = begin; i < end; ++i)
                        out[i] = static_cast<std::uint64_t>(i) * (k + 1) + k;
                    perThread[threadIndex].value += end - begin;
                },
                grain);
            // All writes of this dispatch are visible on return.
            std::uint64_t sum = 0;
            for (std::size_t i = 0; i < count; ++i)
                sum += out[i];
            const std::uint64_t n = count;
            if (sum != (k + 1) * (n * (n - 1) / 2) + k * n)
                ++wrongSums;
            expectedItems += n;
        }
        std::uint64_t items = 0;
        for (const PaddedCounter& c : perThread)
            items += c.value;
        QCOMPARE(wrongSums, 0);
        QCOMPARE(items, expectedItems);
    }
}

void TestThreadPool::parallelFor_wakesSleepingWorkers()
{
    // Let the workers exhaust their spin and block on the condition variable between dispatches.
    ThreadPool pool(4);
    for (int round = 0; round < 5; ++round) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        QCOMPARE(coverageErrors(pool, 1000, 1), 0);
    }
}

void TestThreadPool::parallelFor_nestedCallRunsInline()
{
    for (unsigned threads : {1u, 2u, 4u}) {
        ThreadPool pool(threads);
        constexpr std::size_t kOuter = 64, kInner = 10;
        std::atomic<int> wrongThread{0}, wrongIndex{0}, wrongCoverage{0}, badChunk{0};
        std::vector<int> outerHits(kOuter, 0);
        pool.parallelFor(kOuter, [&](std::size_t begin, std::size_t end, unsigned outerIndex) {
            for (std::size_t o = begin; o < end; ++o) {
                ++outerHits[o];
                const std::thread::id outerThread = std::this_thread::get_id();
                std::array<int, kInner> innerHits{};
                std::size_t expectedBegin = 0;
                // Re-entrant call: must run inline on this thread, with this thread's index, in order.
                pool.parallelFor(
                    kInner,
                    [&](std::size_t b, std::size_t e, unsigned innerIndex) {
                        if (std::this_thread::get_id() != outerThread)
                            wrongThread.fetch_add(1);
                        if (innerIndex != outerIndex)
                            wrongIndex.fetch_add(1);
                        if (b != expectedBegin || e - b > 3)
                            badChunk.fetch_add(1);
                        expectedBegin = e;
                        for (std::size_t i = b; i < e; ++i)
                            ++innerHits[i];
                    },
                    3);
                for (int h : innerHits)
                    if (h != 1)
                        wrongCoverage.fetch_add(1);
            }
        });
        QCOMPARE(wrongThread.load(), 0);
        QCOMPARE(wrongIndex.load(), 0);
        QCOMPARE(wrongCoverage.load(), 0);
        QCOMPARE(badChunk.load(), 0);
        for (int h : outerHits)
            QCOMPARE(h, 1);
        // The pool still dispatches normally after nested use.
        QCOMPARE(coverageErrors(pool, 500, 4), 0);
    }
}

void TestThreadPool::parallelFor_otherPoolFromInsideFn()
{
    // Dispatching on a *different* pool from inside fn is an ordinary dispatch on that pool.
    ThreadPool outer(2);
    ThreadPool inner(2);
    std::atomic<std::uint64_t> total{0};
    std::atomic<int> badInnerIndex{0};
    std::mutex innerMutex;
    outer.parallelFor(
        4,
        [&](std::size_t begin, std::size_t end, unsigned) {
            for (std::size_t o = begin; o < end; ++o) {
                // Only one thread may dispatch on `inner` at a time (documented contract): serialise.
                std::lock_guard<std::mutex> lock(innerMutex);
                inner.parallelFor(100, [&](std::size_t b, std::size_t e, unsigned innerIndex) {
                    if (innerIndex >= inner.threadCount())
                        badInnerIndex.fetch_add(1);
                    total.fetch_add(e - b);
                });
            }
        },
        1);
    QCOMPARE(badInnerIndex.load(), 0);
    QCOMPARE(total.load(), std::uint64_t{400});
}

void TestThreadPool::destructor_joinsIdleWorkers()
{
    int destroyed = 0;
    // Never dispatched: workers are spinning or asleep when the destructor runs.
    for (int i = 0; i < 20; ++i) {
        auto pool = std::make_unique<ThreadPool>(4);
        pool.reset();
        ++destroyed;
    }
    // Destroyed right after a dispatch (workers still spinning).
    for (int i = 0; i < 20; ++i) {
        ThreadPool pool(3);
        QCOMPARE(coverageErrors(pool, 100, 1), 0);
        ++destroyed;
    }
    // Destroyed after the workers went to sleep on the condition variable.
    {
        ThreadPool pool(4);
        QCOMPARE(coverageErrors(pool, 100, 1), 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        ++destroyed;
    }
    QCOMPARE(destroyed, 41);
}

QTEST_APPLESS_MAIN(TestThreadPool)
#include "tst_threadpool.moc"
