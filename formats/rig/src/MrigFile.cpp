// File I/O of .mrig files: one read of a whole file, and the atomic save (temporary file in the same
// folder, flushed and synced, renamed over the target).
#include "MrigInternal.h"

#include "marionette/rig/Mrig.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define MARIONETTE_MRIG_POSIX 1
#elif defined(_WIN32)
#include <io.h>
#endif

namespace marionette::rig {

using detail::fail;
using detail::Msg;
namespace fs = std::filesystem;

namespace {

std::string errnoText(int e) { return std::error_code(e, std::generic_category()).message(); }

/// Flushes the C stream and asks the OS to put the file on disk.
bool syncFile(std::FILE* f)
{
    if (std::fflush(f) != 0)
        return false;
#if defined(MARIONETTE_MRIG_POSIX)
    return ::fsync(::fileno(f)) == 0;
#elif defined(_WIN32)
    return ::_commit(::_fileno(f)) == 0;
#else
    return true;
#endif
}

/// Best effort: makes a rename in `folder` durable (POSIX); nothing elsewhere.
void syncFolder([[maybe_unused]] const fs::path& folder)
{
#if defined(MARIONETTE_MRIG_POSIX)
    const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY);
    if (fd >= 0) {
        (void)::fsync(fd);
        ::close(fd);
    }
#endif
}

/// Creates a new file next to `target` that did not exist before ("wbx": exclusive). Null on failure.
std::FILE* createTemporary(const fs::path& target, fs::path& tmp, int& lastErrno)
{
    static std::atomic<unsigned> counter{0};
    const auto tick = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
    for (int attempt = 0; attempt < 16; ++attempt) {
        std::string name = target.filename().string();
        name.append(".tmp-").append(std::to_string(tick % 1000000007ull)).append("-").append(std::to_string(counter++));
        tmp = target.parent_path() / name;
        errno = 0;
        if (std::FILE* f = std::fopen(tmp.string().c_str(), "wbx"))
            return f;
        lastErrno = errno;
        if (lastErrno != EEXIST)
            break;
    }
    return nullptr;
}

} // namespace

#if defined(MARIONETTE_MRIG_POSIX)
// POSIX: open, fstat, read, close. O_NONBLOCK so that opening a FIFO cannot block; fstat then refuses it.
bool detail::readWholeFile(const std::string& path, const std::function<std::byte*(std::size_t)>& allocate,
                           std::size_t& size, std::string* error)
{
    size = 0;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return fail(error, Msg() << "cannot open: " << errnoText(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st{};
    if (::fstat(fd, &st) != 0)
        return fail(error, Msg() << "cannot open: " << errnoText(errno));
    if (S_ISDIR(st.st_mode))
        return fail(error, Msg() << "cannot open: it is a directory");
    if (!S_ISREG(st.st_mode))
        return fail(error, Msg() << "cannot open: not a regular file");
    if (std::uint64_t(st.st_size) > mrig::kMaxFileSize) // before allocating
        return fail(error, Msg() << "file is " << std::uint64_t(st.st_size) << " bytes; .mrig files above "
                                 << mrig::kMaxFileSize << " bytes are refused");
    const auto want = static_cast<std::size_t>(st.st_size);
    std::byte* dst = want > 0 ? allocate(want) : nullptr;
    std::size_t got = 0;
    while (got < want) { // one read() in practice; more only if the kernel returns less
        const ssize_t n = ::read(fd, dst + got, want - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fail(error, Msg() << "read failed: " << errnoText(errno));
        if (n == 0)
            return fail(error, Msg() << "read failed: got " << got << " of " << want << " bytes (the file changed?)");
        got += static_cast<std::size_t>(n);
    }
    size = want;
    return true;
}
#else
bool detail::readWholeFile(const std::string& path, const std::function<std::byte*(std::size_t)>& allocate,
                           std::size_t& size, std::string* error)
{
    size = 0;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec)
        return fail(error, Msg() << "cannot open: " << ec.message());
    if (fs::is_directory(st))
        return fail(error, Msg() << "cannot open: it is a directory");
    if (!fs::is_regular_file(st))
        return fail(error, Msg() << "cannot open: not a regular file");
    const std::uintmax_t fileSize = fs::file_size(path, ec);
    if (ec)
        return fail(error, Msg() << "cannot open: " << ec.message());
    if (fileSize > mrig::kMaxFileSize) // before allocating
        return fail(error, Msg() << "file is " << fileSize << " bytes; .mrig files above " << mrig::kMaxFileSize
                                 << " bytes are refused");
    errno = 0;
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return fail(error, Msg() << "cannot open: " << errnoText(errno));
    const auto want = static_cast<std::size_t>(fileSize);
    std::size_t got = 0;
    if (want > 0) {
        std::byte* dst = allocate(want);
        got = std::fread(dst, 1, want, f);
    }
    const int readErrno = errno;
    const bool readError = std::ferror(f) != 0;
    std::fclose(f);
    if (readError)
        return fail(error, Msg() << "read failed: " << errnoText(readErrno));
    if (got != want)
        return fail(error, Msg() << "read failed: got " << got << " of " << want << " bytes (the file changed?)");
    size = want;
    return true;
}
#endif

bool saveMrig(const std::string& path, const RigDescription& rig, std::string* error)
{
    std::string problem;
    const std::vector<std::byte> bytes = writeMrig(rig, &problem);
    const auto failWith = [&](const Msg& m) {
        fail(error, m);
        detail::prefixPath(path, error);
        return false;
    };
    if (bytes.empty())
        return failWith(Msg() << problem);
    const fs::path target(path);
    std::error_code ec;
    if (fs::is_directory(target, ec))
        return failWith(Msg() << "cannot save: it is a directory");

    fs::path tmp;
    int createErrno = 0;
    std::FILE* f = createTemporary(target, tmp, createErrno);
    if (!f)
        return failWith(Msg() << "cannot create a temporary file in its folder: " << errnoText(createErrno));
    errno = 0;
    const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && syncFile(f);
    const int writeErrno = errno;
    const bool closed = std::fclose(f) == 0;
    const int closeErrno = errno;
    if (!written || !closed) {
        fs::remove(tmp, ec);
        return failWith(Msg() << "write failed: " << errnoText(!written ? writeErrno : closeErrno));
    }
    fs::rename(tmp, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        return failWith(Msg() << "cannot replace the file: " << ec.message());
    }
    syncFolder(target.parent_path());
    return true;
}

} // namespace marionette::rig
