// Recovery files: autosaved working copies of unsaved documents (project.h).
#include "store/project.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <signal.h>
#include <unistd.h>

namespace wb {

namespace fs = std::filesystem;

std::string recoveryDir()
{
    if (const char *dir = std::getenv("GPUWB_RECOVERY_DIR"); dir && *dir)
        return dir;
    if (const char *state = std::getenv("XDG_STATE_HOME"); state && *state)
        return std::string(state) + "/gpu-workbench/recovery";
    const char *home = std::getenv("HOME");
    return std::string(home ? home : "/tmp") + "/.local/state/gpu-workbench/recovery";
}

std::string recoveryFileFor(const std::string &documentKey)
{
    // FNV-1a of the key: a stable file name per document.
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : documentKey)
        h = (h ^ c) * 1099511628211ull;
    return fmt::format("{}/{:016x}.gpuwb", recoveryDir(), h);
}

namespace {

// The process that autosaves a recovery file writes its id beside it ("<file>.owner"): a second
// window must not offer to recover, or delete, the work of a first one still running.
std::string ownerFileOf(const std::string &recoveryFile)
{
    return recoveryFile + ".owner";
}

// Whether another process, still running, keeps the file up to date. A process that crashed has
// no id alive (or, rarely, one reused by another program: then the file waits for a later start).
bool heldByAnotherProcess(const std::string &recoveryFile)
{
    std::ifstream in(ownerFileOf(recoveryFile));
    long long pid = 0;
    if (!(in >> pid) || pid <= 0 || pid == static_cast<long long>(getpid()))
        return false;
    return kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

} // namespace

void claimRecovery(const std::string &recoveryFile)
{
    std::ofstream(ownerFileOf(recoveryFile), std::ios::trunc) << getpid() << "\n";
}

std::vector<std::string> pendingRecoveryFiles()
{
    std::vector<std::pair<fs::file_time_type, std::string>> found;
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(recoveryDir(), ec))
        if (entry.is_regular_file(ec) && entry.path().extension() == ".gpuwb" && !heldByAnotherProcess(entry.path().string()))
            found.emplace_back(entry.last_write_time(ec), entry.path().string());
    std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    std::vector<std::string> list;
    for (auto &f : found)
        list.push_back(std::move(f.second));
    return list;
}

void discardRecovery(const std::string &documentKey)
{
    std::error_code ec;
    fs::remove(recoveryFileFor(documentKey), ec);
    fs::remove(ownerFileOf(recoveryFileFor(documentKey)), ec);
}

} // namespace wb
