#include "core/fileio.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb {

Status writeFileAtomically(const std::string &path, const std::string &content)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string tmpl = (folder / ("." + target.filename().string() + ".XXXXXX")).string();
    int fd = mkstemp(tmpl.data());
    if (fd < 0)
        return Error{path, "", std::string("cannot be written: ") + std::strerror(errno)};
    const char *data = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int err = errno;
            ::close(fd);
            ::unlink(tmpl.c_str());
            return Error{path, "", std::string("cannot be written: ") + std::strerror(err)};
        }
        data += n;
        left -= std::size_t(n);
    }
    if (::fsync(fd) != 0 || ::fchmod(fd, 0644) != 0) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmpl.c_str());
        return Error{path, "", std::string("cannot be written: ") + std::strerror(err)};
    }
    ::close(fd);
    if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmpl.c_str());
        return Error{path, "", std::string("cannot be replaced: ") + std::strerror(err)};
    }
    return Ok{};
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
