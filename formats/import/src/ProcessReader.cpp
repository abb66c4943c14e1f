// Reading a file with Assimp in a child process (ImportOptions::Isolation::Process): the child runs
// readWithAssimp() and sends frames back through a pipe; a crash, a runaway allocation or a hang in an
// Assimp loader ends the child, not the caller.
//
// Frames: one byte of type, a 64-bit payload size, the payload.
//   'P' progress  float in [0, 1]
//   'S' scene     RawSceneIO bytes
//   'F' failed    the message
#include "ProcessReader.h"

#include "RawSceneIO.h"
#include "Text.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>

#if defined(__unix__) || defined(__APPLE__)
#define MARIONETTE_IMPORT_CAN_FORK 1
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace marionette::import::detail {

#ifdef MARIONETTE_IMPORT_CAN_FORK
namespace {

using Clock = std::chrono::steady_clock;

bool writeAll(int fd, const char* data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= std::size_t(n);
    }
    return true;
}

bool sendFrame(int fd, char type, const void* payload, std::uint64_t size)
{
    char header[1 + sizeof(std::uint64_t)];
    header[0] = type;
    std::memcpy(header + 1, &size, sizeof size);
    return writeAll(fd, header, sizeof header) && writeAll(fd, static_cast<const char*>(payload), std::size_t(size));
}

/// Bytes of address space the calling process uses now (Linux: /proc/self/statm), 0 when unknown.
std::size_t currentAddressSpace()
{
    const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char buf[64] = {};
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0)
        return 0;
    const unsigned long long pages = std::strtoull(buf, nullptr, 10);
    return std::size_t(pages) * std::size_t(::sysconf(_SC_PAGESIZE));
}

[[noreturn]] void childMain(int fd, const std::string& path, const ImportOptions& options, std::size_t limit,
                            pid_t parent)
{
#ifdef __linux__
    // Die with the thread that forked us (a killed editor must not leave a reader behind).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
        ::_exit(5);
#endif
    (void)parent;
    // The application's crash handlers (an editor's autosave-on-crash, Qt Test's) must not run in here.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE, SIGTERM, SIGINT, SIGHUP})
        std::signal(sig, SIG_DFL);
    rlimit noCore{0, 0};
    ::setrlimit(RLIMIT_CORE, &noCore);
    if (limit > 0) {
        rlimit as{rlim_t(limit), rlim_t(limit)};
        ::setrlimit(RLIMIT_AS, &as);
    }
    int code = 0;
    try {
        RawScene raw;
        const std::function<void(float)> progress = [fd](float f) { sendFrame(fd, 'P', &f, sizeof f); };
        const ReadOutcome r = readWithAssimp(path, options, progress, std::stop_token{}, raw);
        if (r.kind == ReadOutcome::Kind::Ok) {
            std::string bytes;
            writeRawScene(raw, bytes);
            code = sendFrame(fd, 'S', bytes.data(), bytes.size()) ? 0 : 4;
        } else {
            code = sendFrame(fd, 'F', r.message.data(), r.message.size()) ? 0 : 4;
        }
    } catch (const std::bad_alloc&) {
        static const char message[] = "ran out of memory while reading the file";
        code = sendFrame(fd, 'F', message, sizeof message - 1) ? 0 : 4;
    } catch (...) {
        code = 3;
    }
    ::_exit(code); // no atexit handlers, no flushing of the parent's buffers
}

int reap(pid_t pid)
{
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return -1; // e.g. SIGCHLD ignored by the application: the child was reaped for us
    }
    return status;
}

std::string endedWithoutReply(int status)
{
    if (status != -1 && WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const char* name = ::strsignal(sig);
        if (sig == SIGKILL)
            return cat("the reader process was killed (signal 9; out of memory?)");
        return cat("Assimp crashed while reading the file (signal ", sig, ", ", name ? name : "unknown", ")");
    }
    if (status != -1 && WIFEXITED(status))
        return cat("the reader process ended without a reply (exit code ", WEXITSTATUS(status), ")");
    return "the reader process ended without a reply";
}

} // namespace

bool processIsolationAvailable() { return true; }

ReadOutcome readInChildProcess(const std::string& path, const ImportOptions& options,
                               const std::function<void(float)>& progress, std::stop_token stop, RawScene& out)
{
    int fds[2];
    if (::pipe(fds) != 0)
        return {ReadOutcome::Kind::Failed, cat("cannot create a pipe for the reader process: ", std::strerror(errno))};
    ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    ::fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    const std::size_t limit = options.memoryLimitBytes > 0 ? currentAddressSpace() + options.memoryLimitBytes : 0;
    const pid_t self = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int e = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        return {ReadOutcome::Kind::Failed, cat("cannot start the reader process: ", std::strerror(e))};
    }
    if (pid == 0) {
        ::close(fds[0]);
        childMain(fds[1], path, options, limit, self);
    }
    ::close(fds[1]);

    const auto deadline = options.timeoutSeconds > 0.
                              ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double>(options.timeoutSeconds))
                              : Clock::time_point::max();
    // Whatever happens from here on (including an exception), the child is killed and reaped.
    struct Child {
        pid_t pid;
        int fd;
        bool reaped = false;
        int finish() // after EOF: the child is exiting on its own
        {
            ::close(fd);
            reaped = true;
            return reap(pid);
        }
        ~Child()
        {
            if (!reaped) {
                ::kill(pid, SIGKILL);
                ::close(fd);
                reap(pid);
            }
        }
    } child{pid, fds[0]}; // every early return below kills and reaps the child
    std::string buffer;
    std::size_t consumed = 0;
    char replyType = 0;
    std::string reply;
    bool eof = false;
    while (!eof) {
        if (stop.stop_requested())
            return {ReadOutcome::Kind::Cancelled, {}};
        if (Clock::now() > deadline)
            return {ReadOutcome::Kind::Failed, cat("Assimp did not finish reading the file within ",
                                                   options.timeoutSeconds, " s and was stopped")};
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, 50);
        if (ready < 0 && errno != EINTR)
            return {ReadOutcome::Kind::Failed,
                    cat("waiting for the reader process failed: ", std::strerror(errno))};
        if (ready <= 0)
            continue;
        char chunk[1 << 16];
        const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
        if (n == 0)
            eof = true;
        else if (n < 0 && errno != EINTR && errno != EAGAIN)
            return {ReadOutcome::Kind::Failed,
                    cat("reading from the reader process failed: ", std::strerror(errno))};
        if (n > 0)
            buffer.append(chunk, std::size_t(n));
        // Complete frames: progress is forwarded at once, the reply kept.
        constexpr std::size_t header = 1 + sizeof(std::uint64_t);
        while (buffer.size() - consumed >= header) {
            std::uint64_t size = 0;
            std::memcpy(&size, buffer.data() + consumed + 1, sizeof size);
            if (size > buffer.max_size() || buffer.size() - consumed - header < size)
                break;
            const char type = buffer[consumed];
            const char* payload = buffer.data() + consumed + header;
            if (type == 'P' && size == sizeof(float) && progress) {
                float f = 0.f;
                std::memcpy(&f, payload, sizeof f);
                progress(f);
            } else if (type == 'S' || type == 'F') {
                replyType = type;
                reply.assign(payload, std::size_t(size));
            }
            consumed += header + std::size_t(size);
        }
        if (consumed > (1u << 20) && consumed == buffer.size()) {
            buffer.clear();
            consumed = 0;
        }
    }
    const int status = child.finish();
    if (stop.stop_requested())
        return {ReadOutcome::Kind::Cancelled, {}};
    if (replyType == 'F') {
        if (reply.find("bad_alloc") != std::string::npos && options.memoryLimitBytes > 0)
            reply.append(cat(" (the reader process may use ", options.memoryLimitBytes >> 20, " MiB)"));
        return {ReadOutcome::Kind::Failed, reply};
    }
    if (replyType == 'S') {
        if (std::string e = readRawScene(reply.data(), reply.size(), out); !e.empty())
            return {ReadOutcome::Kind::Failed, e};
        return {ReadOutcome::Kind::Ok, {}};
    }
    return {ReadOutcome::Kind::Failed, endedWithoutReply(status)};
}

#else // no fork: always in-process

bool processIsolationAvailable() { return false; }

ReadOutcome readInChildProcess(const std::string& path, const ImportOptions& options,
                               const std::function<void(float)>& progress, std::stop_token stop, RawScene& out)
{
    return readWithAssimp(path, options, progress, std::move(stop), out);
}

#endif

} // namespace marionette::import::detail
