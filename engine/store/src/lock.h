// The one-writer lock of a project file: an advisory flock on PATH.lock, released by the kernel
// if the holder dies, so a crash never leaves a stale lock.
#pragma once

#include <memory>
#include <string>

namespace wb::store {

class FileLock
{
public:
    enum class Outcome { Acquired, HeldByOther, CannotCreate };
    struct Attempt
    {
        Outcome outcome = Outcome::CannotCreate;
        std::unique_ptr<FileLock> lock;  // when acquired
        std::string reason;              // why it could not be created (the system's words)
    };

    // Takes the lock of projectPath without waiting.
    static Attempt acquire(const std::string &projectPath);
    // Releases the lock and removes the lock file.
    ~FileLock();
    FileLock(const FileLock &) = delete;
    FileLock &operator=(const FileLock &) = delete;

private:
    FileLock(int fd, std::string path) : m_fd(fd), m_path(std::move(path)) {}
    int m_fd;
    std::string m_path;
};

} // namespace wb::store
