// Marionette — a small fork-join thread pool for the runtime.
//
// The physics World uses it to step independent ragdolls / simulation islands in parallel every frame.
// Dispatches are frequent (60+ per second) and short (microseconds to about a millisecond in total), so
// the design favours low dispatch latency:
//   * worker threads are created once, in the constructor; parallelFor never allocates;
//   * work is split into chunks of `grain` items that threads claim dynamically through one atomic counter;
//   * the calling thread takes part in the work (threadIndex 0), workers have indices 1..threadCount()-1;
//   * between dispatches workers spin briefly (CPU pause) before sleeping on a condition variable;
//   * a generation counter ensures a worker never runs a job that is no longer the current one.
//
// Determinism: which thread runs which chunk, and in which order chunks run, is NOT deterministic. Results
// are deterministic only if `fn` writes disjoint data per item (or per chunk) and the caller reduces
// per-item results in a fixed order afterwards; that is the caller's responsibility.
//
// Threading contract:
//   * One dispatching thread at a time: parallelFor must not be called concurrently on the same pool from
//     two threads (it is not thread-safe with respect to itself).
//   * Not re-entrant: calling parallelFor on the same pool from inside `fn` is not allowed. It is detected
//     and the nested call runs inline, serially, on the calling thread with that thread's threadIndex (so it
//     never deadlocks). Calling a *different* pool from inside `fn` is a normal dispatch on that pool.
//   * `fn` must not throw. parallelFor is noexcept: an exception escaping `fn` calls std::terminate, whether
//     it is raised on the caller or on a worker.
//
// No Qt, no exceptions across the API, no heap allocation after construction.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace marionette::runtime {

/// Fork-join pool running `fn` over an index range on the calling thread plus threadCount()-1 workers.
class ThreadPool {
public:
    /// Signature of the work function: process items [begin, end) on thread `threadIndex`
    /// (0 = the thread that called parallelFor, 1..threadCount()-1 = workers).
    using Function = void (*)(void* context, std::size_t begin, std::size_t end, unsigned threadIndex);

    /// Largest supported thread count (caller included).
    static constexpr unsigned kMaxThreads = 64;

    /// Creates a pool of `threadCount` threads in total, the calling thread included, clamped to
    /// [1, kMaxThreads]; 1 means no worker threads (every parallelFor runs inline on the caller). Starts
    /// threadCount-1 worker threads. Never throws: if the system refuses to create a thread, the pool keeps
    /// the workers it could start (threadCount() reports the real number).
    explicit ThreadPool(unsigned threadCount);

    /// Wakes and joins all workers. Must not be called while a parallelFor on this pool is running.
    ~ThreadPool();

    ThreadPool(const ThreadPool&) = delete;            ///< not copyable (owns threads)
    ThreadPool& operator=(const ThreadPool&) = delete; ///< not copyable (owns threads)
    ThreadPool(ThreadPool&&) = delete;                 ///< not movable (workers hold `this`)
    ThreadPool& operator=(ThreadPool&&) = delete;      ///< not movable (workers hold `this`)

    /// Total number of threads that run work, the caller included (>= 1). Valid threadIndex values passed
    /// to `fn` are [0, threadCount()), e.g. for indexing per-thread scratch memory.
    unsigned threadCount() const noexcept;

    /// Runs `fn(context, begin, end, threadIndex)` over [0, count) split into chunks [k*grain,
    /// min((k+1)*grain, count)); chunks are claimed dynamically, so chunk-to-thread assignment and execution
    /// order are not deterministic. The calling thread participates as threadIndex 0. Returns when every
    /// chunk has finished, and all writes made by `fn` are visible to the caller on return. count == 0 (or a
    /// null fn) returns immediately; grain == 0 is treated as 1. A single chunk runs inline on the caller.
    /// Does not allocate. Not re-entrant (a nested call from inside `fn` runs inline; see the file header).
    void parallelFor(std::size_t count,
                     void (*fn)(void* context, std::size_t begin, std::size_t end, unsigned threadIndex),
                     void* context, std::size_t grain = 1) noexcept;

    /// Convenience overload for a callable `f(std::size_t begin, std::size_t end, unsigned threadIndex)`,
    /// e.g. a capturing lambda. Does not allocate: the callable's address is passed as the context, which is
    /// safe because parallelFor blocks until all chunks are done. Same semantics as the overload above.
    /// (Constrained with enable_if rather than a requires-clause: Qt 6.4's moc cannot parse <concepts>.)
    template <class F, std::enable_if_t<std::is_invocable_v<std::remove_reference_t<F>&, std::size_t,
                                                            std::size_t, unsigned>, int> = 0>
    void parallelFor(std::size_t count, F&& f, std::size_t grain = 1) noexcept
    {
        using Callable = std::remove_reference_t<F>;
        parallelFor(count, &ThreadPool::invokeCallable<Callable>,
                    const_cast<void*>(static_cast<const volatile void*>(std::addressof(f))), grain);
    }

private:
    template <class Callable>
    static void invokeCallable(void* context, std::size_t begin, std::size_t end, unsigned threadIndex)
    {
        (*static_cast<Callable*>(context))(begin, end, threadIndex);
    }

    void workerMain(unsigned threadIndex) noexcept;
    // Waits (spin, then sleep) until the generation differs from `seen` or the pool stops.
    void waitForWork(std::uint64_t seen) noexcept;
    // Claims and runs chunks of the current job until none is left.
    void runChunks(unsigned threadIndex) noexcept;

    static constexpr std::size_t kCacheLine = 64;

    // Job description: written by the dispatching thread only while no worker is inside a job (inJob_ == 0
    // and jobOpen_ == false), published by the seq_cst stores of jobOpen_ / generation_.
    Function fn_ = nullptr;
    void* context_ = nullptr;
    std::size_t count_ = 0;
    std::size_t grain_ = 1;
    std::size_t chunkCount_ = 0;

    alignas(kCacheLine) std::atomic<std::uint64_t> generation_{0}; // bumped once per dispatch
    std::atomic<bool> jobOpen_{false};                                // chunks may be claimed
    std::atomic<bool> stop_{false};                                   // set by the destructor

    alignas(kCacheLine) std::atomic<std::size_t> nextChunk_{0}; // next chunk index to claim
    alignas(kCacheLine) std::atomic<unsigned> inJob_{0};        // workers between entry and exit of a job
    alignas(kCacheLine) std::atomic<unsigned> sleepers_{0};     // workers about to / sleeping on wakeCv_

    std::mutex mutex_;
    std::condition_variable wakeCv_;
    std::vector<std::thread> workers_;
    unsigned threadCount_ = 1;
};

} // namespace marionette::runtime
