#include "untrusted.h"

#include "sqlite.h"
#include "store/project.h"

#include <fmt/format.h>

namespace wb::store {

namespace {

std::uint32_t bigEndian(const std::string &b, std::size_t at, int bytes)
{
    std::uint32_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | static_cast<unsigned char>(b[at + std::size_t(i)]);
    return v;
}

} // namespace

Status checkHeader(const std::string &bytes, const std::string &name)
{
    if (bytes.empty())
        return fail(name, "is empty (0 bytes); it is not a GPU Workbench project");
    if (bytes.size() < 100)
        return fail(name, "is too short to be a GPU Workbench project (" + std::to_string(bytes.size()) + " bytes)");
    if (bytes.compare(0, 16, std::string("SQLite format 3\0", 16)) != 0)
        return fail(name, "is not a GPU Workbench project (it is not an SQLite database)");
    const std::uint32_t appId = bigEndian(bytes, 68, 4);
    if (appId != std::uint32_t(kProjectApplicationId))
        return fail(name, fmt::format("is an SQLite database of another program (application id 0x{:08x}), not a "
                                      "GPU Workbench project",
                                      appId));
    // Bytes 18 and 19 are 2 in write-ahead-log mode: changes may sit in a "-wal" file beside it,
    // which a project read whole would silently leave out. Refused with what to do, not "damaged".
    if (bytes[18] == 2 || bytes[19] == 2)
        return fail(name, "is in SQLite's WAL mode (another tool changed it); run sqlite3 on it with "
                          "\"PRAGMA journal_mode=DELETE;\" to fold its log in, then open it again");
    std::uint32_t pageSize = bigEndian(bytes, 16, 2);
    if (pageSize == 1)
        pageSize = 65536;
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) != 0)
        return fail(name, "is damaged (invalid page size in its header)");
    const std::uint32_t pages = bigEndian(bytes, 28, 4);
    const bool pagesValid = bigEndian(bytes, 92, 4) == bigEndian(bytes, 24, 4) && pages > 0;
    if (pagesValid && std::uint64_t(pages) * pageSize > bytes.size())
        return fail(name, "is truncated (" + std::to_string(bytes.size()) + " of "
                              + std::to_string(std::uint64_t(pages) * pageSize) + " bytes)");
    if (bytes.size() % pageSize != 0)
        return fail(name, "is truncated or damaged (its size is not a whole number of pages)");
    return Ok{};
}

Result<Contents> checkContents(sqlite3 *db, const std::string &name)
{
    const auto damaged = [&](const std::string &detail) {
        return fail(name, "is damaged and cannot be opened (" + detail + ")");
    };
    {
        Statement check(db, "PRAGMA quick_check(1)");
        const int rc = check.step();
        if (rc != SQLITE_ROW)
            return damaged(rc == SQLITE_INTERRUPT ? "checking it took too long" : check.error());
        if (check.text(0) != "ok")
            return damaged(check.text(0));
    }
    Contents c;
    {
        Statement v(db, "PRAGMA user_version");
        if (v.step() != SQLITE_ROW)
            return damaged(v.error());
        c.schemaVersion = int(v.integer(0));
    }
    Statement s(db, "SELECT type, name FROM sqlite_schema");
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
        const std::string type = s.text(0), object = s.text(1);
        if (type == "trigger" || type == "view")
            return fail(name, "contains a " + type + " (\"" + object + "\"), which a GPU Workbench project never "
                              "has; it was not opened and nothing in it was run");
        if (type == "table")
            c.tables.insert(object);
        else if (type != "index")
            return fail(name, "contains an unexpected " + type + " (\"" + object + "\"); it was not opened");
    }
    if (rc != SQLITE_DONE)
        return damaged(s.error());
    if (c.schemaVersion < 1)
        return fail(name, "is not a GPU Workbench project (no schema version)");
    if (!c.tables.count("meta"))
        return fail(name, "is not a GPU Workbench project (its meta table is missing)");
    return c;
}

} // namespace wb::store
