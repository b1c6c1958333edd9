#include "lock.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb::store {

// Why the lock file is checked after locking, and removed before unlocking: the file is removed
// when its holder closes the project, so another process can have opened the old file just
// before that removal and lock it just after: it would hold a lock on a file no longer at the
// path while a third process creates and locks a new one. So whoever takes the lock checks that
// the file it locked is still the one at the path (same device and inode) and retries if not;
// and the holder removes the file while it still holds the lock, so that nobody can take a lock
// on it that the check would pass.
FileLock::Attempt FileLock::acquire(const std::string &projectPath)
{
    const std::string path = projectPath + ".lock";
    for (int attempt = 0; attempt < 100; ++attempt) {
        const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
            return {Outcome::CannotCreate, nullptr, "the lock file " + path + " cannot be created: " + std::strerror(errno)};
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int e = errno;
            ::close(fd);
            if (e == EWOULDBLOCK)
                return {Outcome::HeldByOther, nullptr, {}};
            return {Outcome::CannotCreate, nullptr, "the lock file " + path + " cannot be locked: " + std::strerror(e)};
        }
        struct stat locked{}, current{};
        if (::fstat(fd, &locked) == 0 && ::stat(path.c_str(), &current) == 0 && locked.st_dev == current.st_dev
            && locked.st_ino == current.st_ino) {
            const std::string owner = std::to_string(::getpid()) + "\n";
            if (::ftruncate(fd, 0) == 0 && ::write(fd, owner.data(), owner.size()) < 0) {
                // The pid is only informative; the flock is the lock.
            }
            return {Outcome::Acquired, std::unique_ptr<FileLock>(new FileLock(fd, path)), {}};
        }
        // The holder removed it between our open and our flock: try the file now at the path.
        ::close(fd);
    }
    return {Outcome::CannotCreate, nullptr, "the lock file " + path + " keeps being replaced"};
}

FileLock::~FileLock()
{
    ::unlink(m_path.c_str());
    ::flock(m_fd, LOCK_UN);
    ::close(m_fd);
}

} // namespace wb::store
