#include "core/fileio.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

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

Status writeAtomically(const std::string &path, const std::function<Status(const std::string &tempPath)> &fill,
                       const std::string &verb)
{
    static std::atomic<unsigned> counter{0};
    std::error_code ec;
    const fs::path target = fs::absolute(path, ec);
    if (ec)
        return failure(path, verb, ec.message());
    const fs::path dir = target.parent_path();
    if (!fs::is_directory(dir, ec))
        return failure(path, verb, "the folder " + dir.string() + " does not exist");
    if (fs::is_directory(target, ec))
        return failure(path, verb, "a folder of that name is in the way");
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

Result<std::string> readTextFile(const std::string &path)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return Error{path, "", "does not exist"};
    if (std::filesystem::is_directory(path, ec))
        return Error{path, "", "is a folder, not a file"};
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error{path, "", "cannot be opened for reading"};
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace wb
