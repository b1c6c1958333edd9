// Private to gpuwb: what its commands share (exit codes, output, opening briefs and projects,
// options checked with a message naming them) and the project-file commands that live apart from
// main.cpp (projectcommands.cpp: evidence, checklist, record, report, project).
#pragma once

#include <evaluate/evaluate.h>
#include <record/record.h>
#include <report/report.h>
#include <store/project.h>

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <optional>
#include <string>

namespace gpuwb {

inline constexpr int kBadInput = 2;
inline constexpr int kFailure = 1;

// Prints "gpuwb: message" (escaped) on stderr and returns code.
int fail(int code, const std::string &message);
// The text to standard output, or atomically to outPath.
int writeOutput(const std::string &text, const QString &outPath);
// Results as a table, JSON or CSV.
std::string renderResults(const QString &format, const wb::Brief &brief, const wb::Results &results);
// The scenario of a project the command names (--scenario), or its first one.
wb::Result<wb::Scenario> pickScenario(const wb::Project &project, const std::string &file, const QString &wanted);
// A path names a project when it ends in .gpuwb or starts with SQLite's header.
wb::Result<bool> isProjectFile(const QString &path);

// A brief or a project's scenario, evaluated; a project's vendor checklist gates its
// recommendation (procurement/gate.h).
struct Evaluated
{
    wb::Brief brief;
    wb::Results results;
    std::optional<wb::Sheet> checklist;   // a project's vendor checklist, for the workbook
};
wb::Result<Evaluated> evaluatePath(const QString &pathArg, const QString &scenario, const wb::Catalog &catalog);
// A project opened for writing, waiting up to 5 s for another writer to let go of its lock.
wb::Result<wb::Project> openForWriting(const std::string &file);
// A whole number from 1 to most, or a positive number, from an option; an error names it.
wb::Result<std::optional<int>> countOption(const QCommandLineParser &parser, const QString &name, int most);
wb::Result<std::optional<double>> positiveOption(const QCommandLineParser &parser, const QString &name);
// The named scenario's (the first's by default) inputs for a decision record.
wb::Result<wb::ScenarioSnapshot> snapshotOf(const wb::Project &project, const std::string &file, const QString &scenario);

// The project-file commands (projectcommands.cpp).
int evidenceCommand(const QCommandLineParser &parser, const QStringList &args, const wb::Catalog &catalog);
int checklistCommand(const QStringList &args, const QString &vendor, const QString &format, const QString &outPath);
int recordCommand(const QCommandLineParser &parser, const QStringList &args, const wb::Catalog &catalog);
int reportCommand(const QCommandLineParser &parser, const QStringList &args, const wb::Catalog &catalog);
// gpuwb search (searchcommand.cpp): the layout search over the brief's GPUs, --gpus or --all.
int searchCommand(const QCommandLineParser &parser, const QStringList &args, const wb::Catalog &catalog);
int projectCommand(const QStringList &args, const QString &scenario, const QString &outPath, const wb::Catalog &catalog);

} // namespace gpuwb
