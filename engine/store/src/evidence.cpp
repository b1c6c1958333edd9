#include "evidence.h"

#include "checklist.h"
#include "core/fileio.h"
#include "core/limits.h"
#include "sqlite.h"
#include "store/project.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

namespace wb::store {

namespace {

const char *kColumns = "id, scenario, candidate, file, file_name, run_index, gpu, gpus, tensor_parallel, serving_stack, "
                       "request_rate, concurrency, input_tokens, output_tokens, from_candidate, imported_by, imported_at";

std::optional<double> optionalReal(const Statement &s, int i)
{
    return s.isNull(i) ? std::nullopt : std::optional<double>(s.real(i));
}

std::optional<int> optionalCount(const Statement &s, int i, long long most)
{
    if (s.isNull(i))
        return std::nullopt;
    const long long v = s.integer(i);
    if (v < 1 || v > most)
        throw std::string("has a count out of range");
    return int(v);
}

std::vector<std::string> splitList(const std::string &text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t comma = text.find(',', start);
        out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return out;
}

} // namespace

Result<std::vector<EvidenceRun>> readEvidence(sqlite3 *db, const std::string &scenario)
{
    const std::string sql = fmt::format("SELECT {} FROM evidence_runs {} ORDER BY id", kColumns,
                                        scenario.empty() ? "" : "WHERE scenario = ?1");
    Statement s(db, sql.c_str());
    if (!scenario.empty())
        s.bind(1, scenario);
    std::vector<EvidenceRun> runs;
    // Each stored file is read once, however many of its runs the project holds.
    struct File
    {
        long long bytes;
        Result<std::vector<MeasuredRun>> runs;
    };
    std::map<std::string, File> files;
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
        const long long id = s.integer(0);
        const auto damaged = [&](const std::string &what) {
            return Error{"", "", fmt::format("is damaged: measured run {} {}", id, what)};
        };
        EvidenceRun e;
        e.id = id;
        e.scenario = s.text(1);
        if (s.integer(2) < 0 || s.integer(2) > 100000)
            return damaged("names no candidate");
        e.candidate = std::size_t(s.integer(2));
        e.file.sha256 = s.text(3);
        e.file.name = s.text(4);
        e.index = s.integer(5) < 0 || s.integer(5) > 1000000 ? -1 : int(s.integer(5));
        try {
            e.mapping.gpu = s.text(6);
            e.mapping.gpus = optionalCount(s, 7, 100000);
            e.mapping.tensorParallel = optionalCount(s, 8, 1024);
            e.mapping.concurrency = optionalCount(s, 11, 1000000);
        } catch (const std::string &what) {
            return damaged(what);
        }
        if (!s.isNull(9)) {
            e.mapping.stack = enumFromString<ServingStack>(s.text(9));
            if (!e.mapping.stack)
                return damaged("names an unknown serving stack");
        }
        e.mapping.requestRatePerS = optionalReal(s, 10);
        e.mapping.inputTokens = optionalReal(s, 12);
        e.mapping.outputTokens = optionalReal(s, 13);
        for (const auto &v : {e.mapping.requestRatePerS, e.mapping.inputTokens, e.mapping.outputTokens})
            if (v && (!std::isfinite(*v) || *v <= 0 || *v > 1e8))
                return damaged("has a load or length that is not a positive number");
        if (e.mapping.requestRatePerS &&
            (*e.mapping.requestRatePerS < limits::kMinRequestRatePerS || *e.mapping.requestRatePerS > limits::kRequestRatePerS))
            return damaged("has a request rate outside what the engine simulates");
        e.fromCandidate = splitList(s.text(14));
        e.importedBy = s.text(15);
        e.importedAt = s.text(16);
        if (limits::textProblem(e.scenario, false) || limits::textProblem(e.file.name, false) || limits::textProblem(e.importedBy, false) ||
            limits::textProblem(e.importedAt, false))
            return damaged("holds text that is not valid");
        auto cached = files.find(e.file.sha256);
        if (cached == files.end()) {
            const std::optional<std::string> bytes = attachmentBytes(db, e.file.sha256);
            if (!bytes)
                return damaged("names a file the project does not hold");
            cached = files.emplace(e.file.sha256, File{static_cast<long long>(bytes->size()),
                                                       readMeasuredRuns(*bytes, e.file.name)})
                         .first;
        }
        e.file.bytes = cached->second.bytes;
        const auto &read = cached->second.runs;
        if (!read)
            return damaged("cannot be read from its file: " + read.error().toString());
        if (e.index < 0 || std::size_t(e.index) >= read->size())
            return damaged(fmt::format("names a run its file does not hold (the file holds {})", read->size()));
        e.run = withMapping((*read)[std::size_t(e.index)], e.mapping);
        runs.push_back(std::move(e));
    }
    if (rc != SQLITE_DONE)
        return Error{"", "", "is damaged: its measured runs cannot be read (" + s.error() + ")"};
    return runs;
}

Result<long long> writeEvidence(sqlite3 *db, const EvidenceRun &e)
{
    if (!attachmentBytes(db, e.file.sha256))
        return Error{e.file.name, "", "is not stored in the project"};
    Statement s(db, "INSERT OR REPLACE INTO evidence_runs(id, scenario, candidate, file, file_name, run_index, gpu, gpus, "
                    "tensor_parallel, serving_stack, request_rate, concurrency, input_tokens, output_tokens, "
                    "from_candidate, imported_by, imported_at) "
                    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)");
    if (e.id > 0)
        s.bind(1, e.id);
    else
        s.bindNull(1);
    s.bind(2, e.scenario).bind(3, static_cast<long long>(e.candidate)).bind(4, e.file.sha256).bind(5, e.file.name);
    s.bind(6, static_cast<long long>(e.index)).bind(7, e.mapping.gpu);
    const auto count = [&](int i, const std::optional<int> &v) {
        if (v)
            s.bind(i, static_cast<long long>(*v));
        else
            s.bindNull(i);
    };
    const auto real = [&](int i, const std::optional<double> &v) {
        if (v)
            s.bind(i, *v);
        else
            s.bindNull(i);
    };
    count(8, e.mapping.gpus);
    count(9, e.mapping.tensorParallel);
    if (e.mapping.stack)
        s.bind(10, std::string(enumName(*e.mapping.stack)));
    else
        s.bindNull(10);
    real(11, e.mapping.requestRatePerS);
    count(12, e.mapping.concurrency);
    real(13, e.mapping.inputTokens);
    real(14, e.mapping.outputTokens);
    std::string from;
    for (const std::string &f : e.fromCandidate)
        from += (from.empty() ? "" : ",") + f;
    s.bind(15, from).bind(16, e.importedBy).bind(17, e.importedAt);
    if (Status r = s.run("the measured run could not be stored"); !r)
        return r.error();
    return static_cast<long long>(sqlite3_last_insert_rowid(db));
}

Status deleteEvidence(sqlite3 *db, long long id)
{
    Statement s(db, "DELETE FROM evidence_runs WHERE id = ?1");
    return s.bind(1, id).run("the measured run could not be removed");
}

} // namespace wb::store

namespace wb {

Result<std::vector<EvidenceRun>> prepareEvidence(Project &project, const std::string &path, const std::string &scenario,
                                                 std::size_t candidate, const RunMapping &mapping,
                                                 const std::string &importedBy, const Catalog &catalog)
{
    auto bytes = readTextFile(path);
    if (!bytes)
        return bytes.error();
    const std::string name = std::filesystem::path(path).filename().string();
    auto runs = readMeasuredRuns(*bytes, path);
    if (!runs)
        return runs.error();
    if (runs->size() > kMaxRunsPerImport)
        return Error{path, "", fmt::format("holds {} runs; import at most {} at a time (each run is re-simulated, and "
                                           "calibration evaluates every run many times)",
                                           runs->size(), kMaxRunsPerImport)};
    auto brief = scenarioBrief(project, scenario, catalog);
    if (!brief)
        return brief.error();
    if (importedBy.size() > 600 || limits::textProblem(importedBy, false))
        return Error{"", "imported_by", importedBy.size() > 600 ? "is longer than 600 bytes"
                                                                : "is not plain text: " + *limits::textProblem(importedBy, false)};
    std::vector<EvidenceRun> out;
    for (std::size_t i = 0; i < runs->size(); ++i) {
        EvidenceRun e;
        e.scenario = scenario;
        e.candidate = candidate;
        e.index = int(i);
        e.importedBy = importedBy;
        e.importedAt = store::nowIso();
        auto mapped = mapRun((*runs)[i], *brief, candidate, mapping, &e.fromCandidate);
        if (!mapped) {
            Error error = mapped.error();
            error.file = path;
            if (runs->size() > 1)
                error.path = fmt::format("run {} of {}: {}", i + 1, runs->size(), error.path);
            return error;
        }
        e.run = std::move(mapped).value();
        e.mapping = mappingOf(e.run);
        out.push_back(std::move(e));
    }
    // Attached only once every run maps: a refused file leaves nothing behind.
    auto attached = project.attach(name, *bytes);
    if (!attached)
        return attached.error();
    for (EvidenceRun &e : out)
        e.file = {name, attached->sha256, static_cast<long long>(attached->bytes)};
    return out;
}

} // namespace wb
