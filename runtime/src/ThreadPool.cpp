#include "ThreadPool.h"

#include <algorithm>
#include <system_error>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#include <immintrin.h>
#define MARIONETTE_THREADPOOL_HAS_PAUSE 1
#endif

namespace marionette::runtime {

namespace {

#if defined(MARIONETTE_THREADPOOL_HAS_PAUSE)
// A pause is ~10–150 cycles depending on the CPU: a few thousand of them is a few µs to ~0.3 ms of spinning.
constexpr unsigned kSpinIterations = 4096;
inline void cpuRelax() noexcept { _mm_pause(); }
#else
// yield() is a system call: spin fewer times.
constexpr unsigned kSpinIterations = 256;
inline void cpuRelax() noexcept { std::this_thread::yield(); }
#endif

// The pool whose job the current thread is running (nullptr if none) and its threadIndex in that pool; used
// to detect nested parallelFor calls from inside `fn`.
thread_local const ThreadPool* tCurrentPool = nullptr;
thread_local unsigned tCurrentIndex = 0;

// Marks the calling thread as running `pool`'s job for the duration of a dispatch (restores the previous
// marking on exit, so a worker of another pool may dispatch on this one).
class ScopedCurrentPool {
public:
    ScopedCurrentPool(const ThreadPool* pool, unsigned index) noexcept
        : previousPool_(tCurrentPool), previousIndex_(tCurrentIndex)
    {
        tCurrentPool = pool;
        tCurrentIndex = index;
    }
    ~ScopedCurrentPool()
    {
        tCurrentPool = previousPool_;
        tCurrentIndex = previousIndex_;
    }
    ScopedCurrentPool(const ScopedCurrentPool&) = delete;
    ScopedCurrentPool& operator=(const ScopedCurrentPool&) = delete;

private:
    const ThreadPool* previousPool_;
    unsigned previousIndex_;
};

void runSerial(ThreadPool::Function fn, void* context, std::size_t count, std::size_t grain,
               unsigned threadIndex) noexcept
{
    for (std::size_t begin = 0; begin < count;) {
        const std::size_t end = (count - begin > grain) ? begin + grain : count;
        fn(context, begin, end, threadIndex);
        begin = end;
    }
}

} // namespace

ThreadPool::ThreadPool(unsigned threadCount)
{
    const unsigned wanted = std::clamp(threadCount, 1u, kMaxThreads);
    try {
        workers_.reserve(wanted - 1);
        for (unsigned index = 1; index < wanted; ++index)
            workers_.emplace_back(&ThreadPool::workerMain, this, index);
    } catch (...) {
        // std::system_error (thread creation refused) or std::bad_alloc: keep the workers already running.
    }
    threadCount_ = 1 + static_cast<unsigned>(workers_.size());
}

ThreadPool::~ThreadPool()
{
    stop_.store(true, std::memory_order_seq_cst);
    {
        // A worker that checked its wait predicate under the mutex is now blocked in wait(), or will
        // re-check the predicate (and see stop_) when it gets the mutex: no lost wake-up.
        std::lock_guard<std::mutex> lock(mutex_);
    }
    wakeCv_.notify_all();
    for (std::thread& worker : workers_)
        if (worker.joinable())
            worker.join();
}

unsigned ThreadPool::threadCount() const noexcept
{
    return threadCount_;
}

void ThreadPool::parallelFor(std::size_t count, Function fn, void* context, std::size_t grain) noexcept
{
    if (count == 0 || fn == nullptr)
        return;
    if (grain == 0)
        grain = 1;

    // Nested call from inside `fn` (on the caller or on a worker): run inline rather than deadlock.
    if (tCurrentPool == this) {
        runSerial(fn, context, count, grain, tCurrentIndex);
        return;
    }

    ScopedCurrentPool current(this, 0);
    const std::size_t chunks = count / grain + (count % grain != 0 ? 1 : 0);
    if (workers_.empty() || chunks == 1) {
        runSerial(fn, context, count, grain, 0);
        return;
    }

    // Publish the job. No worker is inside a job here (the previous dispatch ended with jobOpen_ == false
    // and inJob_ == 0), so these plain writes race with nothing.
    fn_ = fn;
    context_ = context;
    count_ = count;
    grain_ = grain;
    chunkCount_ = chunks;
    nextChunk_.store(0, std::memory_order_relaxed);
    jobOpen_.store(true, std::memory_order_seq_cst);
    generation_.fetch_add(1, std::memory_order_seq_cst);

    // Wake sleeping workers. Dekker-style with the worker's `sleepers_++; check generation_`: either we see
    // its increment here, or it sees the new generation in its predicate. Skipped entirely while workers are
    // still spinning from the previous dispatch (the common case for back-to-back dispatches).
    if (sleepers_.load(std::memory_order_seq_cst) != 0) {
        { std::lock_guard<std::mutex> lock(mutex_); }
        wakeCv_.notify_all();
    }

    runChunks(0);

    // Every chunk has been claimed (runChunks returned). Close the job, then wait for the workers that
    // entered it: a worker claims chunks only between its inJob_ increment and decrement, and one that
    // increments after this point sees jobOpen_ == false and touches nothing. The acquire in the load
    // synchronises with the workers' release decrements, so their writes are visible on return.
    jobOpen_.store(false, std::memory_order_seq_cst);
    for (unsigned spins = 0; inJob_.load(std::memory_order_seq_cst) != 0; ++spins) {
        if (spins < kSpinIterations)
            cpuRelax();
        else
            std::this_thread::yield();
    }
}

void ThreadPool::runChunks(unsigned threadIndex) noexcept
{
    const Function fn = fn_;
    void* const context = context_;
    const std::size_t count = count_;
    const std::size_t grain = grain_;
    const std::size_t chunks = chunkCount_;
    for (;;) {
        // seq_cst so that the claim is ordered with the inJob_/jobOpen_ protocol (a lock xadd on x86 anyway).
        const std::size_t chunk = nextChunk_.fetch_add(1, std::memory_order_seq_cst);
        if (chunk >= chunks)
            return;
        const std::size_t begin = chunk * grain; // < count: no overflow
        const std::size_t end = (count - begin > grain) ? begin + grain : count;
        fn(context, begin, end, threadIndex);
    }
}

void ThreadPool::waitForWork(std::uint64_t seen) noexcept
{
    for (unsigned i = 0; i < kSpinIterations; ++i) {
        if (generation_.load(std::memory_order_acquire) != seen || stop_.load(std::memory_order_acquire))
            return;
        cpuRelax();
    }
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    {
        std::unique_lock<std::mutex> lock(mutex_);
        wakeCv_.wait(lock, [this, seen] {
            return stop_.load(std::memory_order_seq_cst) || generation_.load(std::memory_order_seq_cst) != seen;
        });
    }
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
}

void ThreadPool::workerMain(unsigned threadIndex) noexcept
{
    tCurrentPool = this;
    tCurrentIndex = threadIndex;
    std::uint64_t seen = 0; // no dispatch can start before the constructor returns
    for (;;) {
        waitForWork(seen);
        if (stop_.load(std::memory_order_acquire))
            return;
        const std::uint64_t generation = generation_.load(std::memory_order_seq_cst);
        seen = generation;
        inJob_.fetch_add(1, std::memory_order_seq_cst);
        // Enter only the job that is open *and* is the one we were woken for; anything else is stale (the
        // loop then sees the newer generation and comes back at once).
        if (jobOpen_.load(std::memory_order_seq_cst) && generation_.load(std::memory_order_seq_cst) == generation)
            runChunks(threadIndex);
        inJob_.fetch_sub(1, std::memory_order_release);
    }
}

} // namespace marionette::runtime
