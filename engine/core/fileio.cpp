#include "core/fileio.h"

#include <algorithm>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb {

namespace fs = std::filesystem;

namespace {

Error failure(const std::string &path, const std::string &verb, const std::string &why)
{
    return Error{path, "", verb + ": " + why};
}

// Temporary files of writes that were killed half-way (their process is gone) are litter:
// remove them. Those of a write running in another live process are left alone.
void removeStaleTemporaries(const fs::path &dir, const std::string &prefix)
{
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0)
            continue;
        const long pid = std::atol(name.c_str() + prefix.size());
        if (pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH) {
            std::error_code ignored;
            fs::remove(entry.path(), ignored);
        }
    }
}

} // namespace

void removeStaleSaves(const std::string &path)
{
    std::error_code ec;
    const fs::path target = fs::absolute(path, ec);
    if (!ec)
        removeStaleTemporaries(target.parent_path(), "." + target.filename().string() + ".saving-");
}

Status writeAtomically(const std::string &path, const std::function<Status(const std::string &tempPath)> &fill,
                       const std::string &verb)
{
    static std::atomic<unsigned> counter{0};
    std::error_code ec;
    fs::path target = fs::absolute(path, ec);
    if (ec)
        return failure(path, verb, ec.message());
    // Through a symbolic link, the file it points to is replaced (replacing the link left the
    // real project stale).
    if (fs::is_symlink(fs::symlink_status(target, ec))) {
        target = fs::weakly_canonical(target, ec);
        if (ec)
            return failure(path, verb, "the link cannot be followed: " + ec.message());
    }
    const fs::path dir = target.parent_path();
    if (!fs::is_directory(dir, ec))
        return failure(path, verb, "the folder " + dir.string() + " does not exist");
    if (fs::is_directory(target, ec))
        return failure(path, verb, "a folder of that name is in the way");
    // Only a regular file is replaced: a device, FIFO or socket of that name (or a link to one)
    // stays what it is, and so does a file its owner made read-only.
    if (struct stat existing{}; ::stat(target.c_str(), &existing) == 0) {
        if (!S_ISREG(existing.st_mode))
            return failure(path, verb, "it is a device, FIFO or socket, not a file; it is left as it is");
        if ((existing.st_mode & 0222) == 0)
            return failure(path, verb, "the file is read-only; it is left as it is");
    }
    const std::string prefix = "." + target.filename().string() + ".saving-";
    removeStaleTemporaries(dir, prefix);
    const fs::path temp = dir / (prefix + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    // Create the temporary file ourselves first: the operating system's reason (read-only
    // folder, permission) is clearer than a library's "unable to open".
    const int probe = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (probe < 0)
        return failure(path, verb, std::string(std::strerror(errno)) + " (writing in " + dir.string() + ")");
    ::close(probe);
    const auto cleanup = [&] {
        std::error_code ignored;
        fs::remove(temp, ignored);
        fs::remove(temp.string() + "-journal", ignored);
    };
    if (Status filled = fill(temp.string()); !filled) {
        cleanup();
        return failure(path, verb, filled.error().message);
    }
    // The new file keeps the old one's permissions (a 0600 project stayed 0600 only by luck).
    if (struct stat old{}; ::stat(target.c_str(), &old) == 0)
        ::chmod(temp.c_str(), old.st_mode & 07777);
    const int fd = ::open(temp.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        const int e = errno;
        if (fd >= 0)
            ::close(fd);
        cleanup();
        return failure(path, verb, std::strerror(e));
    }
    ::close(fd);
    if (::rename(temp.c_str(), target.c_str()) != 0) {
        const int e = errno;
        cleanup();
        return failure(path, verb, std::strerror(e));
    }
    // Make the rename itself durable.
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return Ok{};
}

Status writeFileAtomically(const std::string &path, const std::string &content)
{
    return writeAtomically(path, [&](const std::string &temp) -> Status {
        const int fd = ::open(temp.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
        if (fd < 0)
            return Error{temp, "", std::strerror(errno)};
        const char *data = content.data();
        std::size_t left = content.size();
        while (left > 0) {
            const ssize_t n = ::write(fd, data, left);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                const int e = errno;
                ::close(fd);
                return Error{temp, "", std::strerror(e)};
            }
            data += n;
            left -= std::size_t(n);
        }
        if (::close(fd) != 0)
            return Error{temp, "", std::strerror(errno)};
        return Ok{};
    });
}

namespace {

// Opens path for reading without blocking (a FIFO would wait for a writer) and accepts only a
// regular file: a FIFO, a device, a socket or a folder is refused with what it is.
Result<int> openRegular(const std::string &path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return Error{path, "", errno == ENOENT ? std::string("does not exist")
                                               : "cannot be opened for reading: " + std::string(std::strerror(errno))};
    struct stat st{};
    if (::fstat(fd, &st) != 0) {
        const std::string why = std::strerror(errno);
        ::close(fd);
        return Error{path, "", "cannot be read: " + why};
    }
    const char *kind = S_ISREG(st.st_mode)    ? nullptr
                       : S_ISDIR(st.st_mode)  ? "is a folder, not a file"
                       : S_ISFIFO(st.st_mode) ? "is a pipe (FIFO), not a file"
                       : S_ISSOCK(st.st_mode) ? "is a socket, not a file"
                                              : "is a device, not a file";
    if (kind) {
        ::close(fd);
        return Error{path, "", kind};
    }
    // Reads of a regular file do not block; clear the flag all the same.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

// Reads at most `limit` bytes; *more says whether the file holds more.
Result<std::string> readUpTo(const std::string &path, std::size_t limit, bool *more)
{
    Result<int> fd = openRegular(path);
    if (!fd)
        return fd.error();
    std::string bytes;
    char buffer[65536];
    *more = false;
    for (;;) {
        const ssize_t n = ::read(*fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const std::string why = std::strerror(errno);
            ::close(*fd);
            return Error{path, "", "cannot be read: " + why};
        }
        if (n == 0)
            break;
        const std::size_t room = limit - bytes.size();
        bytes.append(buffer, std::min(room, std::size_t(n)));
        if (std::size_t(n) > room) {
            *more = true;
            break;
        }
    }
    ::close(*fd);
    return bytes;
}

} // namespace

Result<std::string> readTextFile(const std::string &path, std::size_t maxBytes)
{
    bool more = false;
    Result<std::string> bytes = readUpTo(path, maxBytes, &more);
    if (bytes && more)
        return Error{path, "", "is larger than " + std::to_string(maxBytes >> 20) + " MiB, the most a file of this kind "
                                   "may hold"};
    return bytes;
}

Result<std::string> readFileHead(const std::string &path, std::size_t bytes)
{
    bool more = false;
    return readUpTo(path, bytes, &more);
}

} // namespace wb
