// What gpuwb's commands share (cli.h).
#include "cli.h"

#include <core/fileio.h>
#include <core/limits.h>
#include <procurement/vendors.h>
#include <usecase/scenario.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

namespace gpuwb {

int fail(int code, const std::string &message)
{
    std::fprintf(stderr, "gpuwb: %s\n", wb::limits::printable(message, 4000).c_str());
    return code;
}

int writeOutput(const std::string &text, const QString &outPath)
{
    if (outPath.isEmpty()) {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return std::fflush(stdout) == 0 ? 0 : kFailure;
    }
    wb::Status written = wb::writeFileAtomically(outPath.toStdString(), text);
    return written ? 0 : fail(kFailure, written.error().toString());
}

std::string renderResults(const QString &format, const wb::Brief &brief, const wb::Results &results)
{
    if (format == QLatin1String("json"))
        return wb::resultsToJson(brief, results);
    if (format == QLatin1String("csv"))
        return wb::resultsToCsv(brief, results);
    return wb::resultsToTable(brief, results);
}

// The scenario of a project the command names (--scenario), or its first one.
wb::Result<wb::Scenario> pickScenario(const wb::Project &project, const std::string &file, const QString &wanted)
{
    const std::vector<wb::Scenario> all = project.scenarios();
    if (all.empty())
        return wb::Error{file, "", "has no scenarios"};
    if (wanted.isEmpty())
        return all.front();
    if (auto s = project.scenario(wanted.toStdString()))
        return *s;
    std::string names;
    for (const wb::Scenario &s : all)
        names += (names.empty() ? "" : ", ") + ("\"" + s.name + "\"");
    return wb::Error{file, "", "has no scenario \"" + wanted.toStdString() + "\" (it has " + names + ")"};
}

// A path names a project when it ends in .gpuwb or starts with SQLite's header.
wb::Result<bool> isProjectFile(const QString &path)
{
    if (path.endsWith(QLatin1String(".gpuwb")))
        return true;
    // Read without blocking, and only from a regular file (a FIFO would wait forever).
    const auto head = wb::readFileHead(path.toStdString(), 16);
    if (!head)
        return head.error();
    return *head == std::string("SQLite format 3\0", 16);
}

wb::Result<Evaluated> evaluatePath(const QString &pathArg, const QString &scenario, const wb::Catalog &catalog)
{
    const std::string path = pathArg.toStdString();
    const auto project = isProjectFile(pathArg);
    if (!project)
        return project.error();
    if (!*project) {
        auto brief = wb::loadBrief(path, catalog);
        if (!brief)
            return brief.error();
        wb::Results results = wb::evaluate(*brief, catalog);
        return Evaluated{std::move(brief).value(), std::move(results), std::nullopt};
    }
    auto opened = wb::Project::open(path, wb::OpenAccess::ReadOnly);
    if (!opened)
        return opened.error();
    auto picked = pickScenario(*opened, path, scenario);
    if (!picked)
        return picked.error();
    auto evaluated = wb::evaluateProjectScenario(*opened, picked->name, catalog, path);
    if (!evaluated)
        return evaluated.error();
    wb::ProjectEvaluation &e = *evaluated;
    auto sheet = wb::checklistSheet(e.checklistTemplate, e.checklist);
    return Evaluated{std::move(e.brief), std::move(e.results), std::move(sheet)};
}

// A project opened for writing, waiting up to 5 s for another writer (a second import a few
// milliseconds earlier) to let go of its lock. Never a silent loss: a refusal says why.
wb::Result<wb::Project> openForWriting(const std::string &file)
{
    auto project = wb::Project::open(file, wb::OpenAccess::ReadWrite);
    for (int tries = 0; project && project->lockedByOther() && tries < 100; ++tries) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        project = wb::Project::open(file, wb::OpenAccess::ReadWrite);
    }
    if (project && project->readOnly())
        return wb::Error{file, "", project->readOnlyReason() + "; not changed"};
    return project;
}

// A whole number of at least 1 from an option, or an error naming it.
wb::Result<std::optional<int>> countOption(const QCommandLineParser &parser, const QString &name, int most)
{
    if (!parser.isSet(name))
        return std::optional<int>();
    bool ok = false;
    const int n = parser.value(name).toInt(&ok);
    if (!ok || n < 1 || n > most)
        return wb::Error{"", "--" + name.toStdString(),
                         "\"" + parser.value(name).toStdString() + "\" is not a whole number from 1 to " + std::to_string(most)};
    return std::optional<int>(n);
}

wb::Result<std::optional<double>> positiveOption(const QCommandLineParser &parser, const QString &name)
{
    if (!parser.isSet(name))
        return std::optional<double>();
    bool ok = false;
    const double v = parser.value(name).toDouble(&ok);
    if (!ok || !(v > 0) || !std::isfinite(v))
        return wb::Error{"", "--" + name.toStdString(), "\"" + parser.value(name).toStdString() + "\" is not a positive number"};
    return std::optional<double>(v);
}

// The named scenario's (the first's by default) inputs for a decision record.
wb::Result<wb::ScenarioSnapshot> snapshotOf(const wb::Project &project, const std::string &file, const QString &scenario)
{
    auto picked = pickScenario(project, file, scenario);
    if (!picked)
        return picked.error();
    return wb::scenarioSnapshot(project, picked->name);
}

} // namespace gpuwb
