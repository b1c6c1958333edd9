// gpuwb: evaluate briefs and list the catalogs from the command line.
// Exit codes (../shared/spec/brief-and-results-v1.md): 0 evaluated, 2 bad input (one line on
// stderr naming the file and the field), 1 anything else.

#include <brief/brief.h>
#include <catalog/catalog.h>
#include <evaluate/calibration.h>
#include <evaluate/evaluate.h>
#include "report/report.h"
#include <core/fileio.h>
#include <core/limits.h>
#include <store/project.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QStringList>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

namespace {

constexpr int kBadInput = 2;
constexpr int kFailure = 1;

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

// The brief of a project's scenario.
wb::Result<wb::Brief> projectBrief(const std::string &path, const QString &scenario, const wb::Catalog &catalog)
{
    auto project = wb::Project::open(path, wb::OpenAccess::ReadOnly);
    if (!project)
        return project.error();
    auto picked = pickScenario(*project, path, scenario);
    if (!picked)
        return picked.error();
    return wb::scenarioBrief(*project, picked->name, catalog, path);
}

// gpuwb project new|import|export|list FILE.gpuwb ...
int projectCommand(const QStringList &args, const QString &scenario, const QString &outPath, const wb::Catalog &catalog)
{
    const QString verb = args.value(1);
    const std::string file = args.value(2).toStdString();
    if (verb == QLatin1String("new")) {
        if (QFileInfo::exists(args.value(2)))
            return fail(kBadInput, file + ": already exists; gpuwb project new never overwrites a file");
        wb::Project project = wb::Project::create();
        for (int i = 3; i < args.size(); ++i) {
            auto brief = wb::loadBrief(args.at(i).toStdString(), catalog);
            if (!brief)
                return fail(kBadInput, brief.error().toString());
            auto text = wb::readTextFile(args.at(i).toStdString());
            wb::Status put = project.putScenario(brief->name, text.value());
            if (!put)
                return fail(kBadInput, args.at(i).toStdString() + ": " + put.error().message);
        }
        wb::Status saved = project.save(file);
        return saved ? 0 : fail(kFailure, saved.error().toString());
    }
    if (verb == QLatin1String("list")) {
        auto project = wb::Project::open(file, wb::OpenAccess::ReadOnly);
        if (!project)
            return fail(kBadInput, project.error().toString());
        std::string text;
        for (const wb::Scenario &s : project->scenarios())
            text += wb::limits::printable(s.name, 4000) + "\n";  // one line each, whatever a name holds
        return writeOutput(text, outPath);
    }
    if (verb == QLatin1String("export")) {
        auto project = wb::Project::open(file, wb::OpenAccess::ReadOnly);
        if (!project)
            return fail(kBadInput, project.error().toString());
        auto picked = pickScenario(*project, file, scenario);
        if (!picked)
            return fail(kBadInput, picked.error().toString());
        return writeOutput(picked->briefJson + "\n", outPath);
    }
    if (verb == QLatin1String("import")) {
        if (args.size() != 4)
            return fail(kBadInput, "usage: gpuwb project import FILE.gpuwb BRIEF.json [--scenario NAME]");
        auto project = wb::Project::open(file, wb::OpenAccess::ReadWrite);
        // Another writer (a second import a few milliseconds earlier) holds the lock: wait for
        // it up to 5 s, then read the file it wrote. Never a silent loss: a refusal says why.
        for (int tries = 0; project && project->lockedByOther() && tries < 100; ++tries) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            project = wb::Project::open(file, wb::OpenAccess::ReadWrite);
        }
        if (!project)
            return fail(kBadInput, project.error().toString());
        if (project->readOnly())
            return fail(kBadInput, file + ": " + project->readOnlyReason() + "; not changed");
        const std::string briefPath = args.at(3).toStdString();
        auto brief = wb::loadBrief(briefPath, catalog);
        if (!brief)
            return fail(kBadInput, brief.error().toString());
        const std::string name = scenario.isEmpty() ? brief->name : scenario.toStdString();
        wb::Status put = project->putScenario(name, wb::readTextFile(briefPath).value());
        if (!put)
            return fail(kBadInput, briefPath + ": " + put.error().message);
        wb::Status saved = project->save(file);
        return saved ? 0 : fail(kFailure, saved.error().toString());
    }
    return fail(kBadInput, "project: \"" + verb.toStdString() + "\" is not new, import, export or list");
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gpuwb"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(wb::engineVersion()));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "GPU Workbench command line.\n\n"
        "Commands:\n"
        "  catalog gpus|models     list the catalog (--format table|json)\n"
        "  evaluate BRIEF.json     evaluate a brief (--format table|json|csv, --out FILE)\n"
        "  evaluate PROJECT.gpuwb  evaluate a scenario of a project (--scenario NAME; the first by default)\n"
        "  project new FILE.gpuwb [BRIEF.json ...]        create a project (never overwrites)\n"
        "  project import FILE.gpuwb BRIEF.json           add or replace a scenario (--scenario NAME)\n"
        "  project export FILE.gpuwb                      a scenario as brief JSON (--scenario, --out)\n"
        "  project list FILE.gpuwb                        the scenarios' names\n"
        "  calibrate CASES.csv     fit the efficiency factors to measured cases (--out FILE for the\n"
        "                          calibration JSON; the per-case table goes to standard output)\n\n"
        "Exit codes: 0 evaluated, 2 bad input, 1 other failure."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption formatOption(QStringLiteral("format"), QStringLiteral("Output format: table, json or csv."),
                                          QStringLiteral("format"), QStringLiteral("table"));
    const QCommandLineOption outOption(QStringLiteral("out"), QStringLiteral("Write the result to FILE."),
                                       QStringLiteral("file"));
    const QCommandLineOption catalogOption(QStringLiteral("catalog"),
                                           QStringLiteral("Also load catalog FILE (adds or overrides entries)."),
                                           QStringLiteral("file"));
    const QCommandLineOption scenarioOption(QStringLiteral("scenario"),
                                            QStringLiteral("Scenario of a project file to evaluate."),
                                            QStringLiteral("name"));
    parser.addOptions({formatOption, outOption, catalogOption, scenarioOption});
    parser.addPositionalArgument(QStringLiteral("command"), QStringLiteral("catalog or evaluate"));
    parser.addPositionalArgument(QStringLiteral("argument"), QStringLiteral("gpus|models, or the brief file"));

    if (!parser.parse(QCoreApplication::arguments()))
        return fail(kBadInput, parser.errorText().toStdString() + " (see gpuwb --help)");
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();

    const QStringList args = parser.positionalArguments();
    const bool projectVerb = args.value(0) == QLatin1String("project");
    if (projectVerb ? args.size() < 3 : args.size() != 2)
        return fail(kBadInput, "expected a command and one argument: gpuwb catalog gpus|models, or gpuwb evaluate "
                               "BRIEF.json (see gpuwb --help)");
    const QString command = args.at(0);
    const QString format = parser.value(formatOption);
    const QString outPath = parser.value(outOption);

    auto catalog = wb::Catalog::loadDefault(command != QLatin1String("calibrate"));
    if (!catalog)
        return fail(kBadInput, catalog.error().toString());
    for (const QString &extra : parser.values(catalogOption)) {
        wb::Status loaded = catalog.value().loadFile(extra.toStdString());
        if (!loaded)
            return fail(kBadInput, loaded.error().toString());
    }

    if (projectVerb)
        return projectCommand(args, parser.value(scenarioOption), outPath, *catalog);

    if (command == QLatin1String("catalog")) {
        const QString what = args.at(1);
        if (what != QLatin1String("gpus") && what != QLatin1String("models"))
            return fail(kBadInput, "catalog: \"" + what.toStdString() + "\" is not gpus or models");
        if (format != QLatin1String("table") && format != QLatin1String("json"))
            return fail(kBadInput, "--format: \"" + format.toStdString() + "\" is not table or json");
        const bool gpus = what == QLatin1String("gpus");
        const bool json = format == QLatin1String("json");
        const std::string text = gpus ? (json ? wb::catalogGpusJson(*catalog) : wb::catalogGpusTable(*catalog))
                                      : (json ? wb::catalogModelsJson(*catalog) : wb::catalogModelsTable(*catalog));
        return writeOutput(text, outPath);
    }

    if (command == QLatin1String("evaluate")) {
        if (format != QLatin1String("table") && format != QLatin1String("json") && format != QLatin1String("csv"))
            return fail(kBadInput, "--format: \"" + format.toStdString() + "\" is not table, json or csv");
        const std::string path = args.at(1).toStdString();
        // A project file is recognised by its extension or by its SQLite header.
        bool project = args.at(1).endsWith(QLatin1String(".gpuwb"));
        if (!project) {
            // Read without blocking, and only from a regular file (a FIFO would wait forever).
            const auto head = wb::readFileHead(path, 16);
            if (!head)
                return fail(kBadInput, head.error().toString());
            project = *head == std::string("SQLite format 3\0", 16);
        }
        auto brief = project ? projectBrief(path, parser.value(scenarioOption), *catalog) : wb::loadBrief(path, *catalog);
        if (!brief)
            return fail(kBadInput, brief.error().toString());
        const wb::Results results = wb::evaluate(*brief, *catalog);
        return writeOutput(renderResults(format, *brief, results), outPath);
    }

    if (command == QLatin1String("calibrate")) {
        const std::string path = args.at(1).toStdString();
        auto text = wb::readTextFile(path);
        if (!text)
            return fail(kBadInput, text.error().toString());
        auto cases = wb::readCalibrationCases(*text, path, *catalog);
        if (!cases)
            return fail(kBadInput, cases.error().toString());
        const wb::CalibrationReport report =
            wb::calibrate(*cases, wb::EfficiencyTable::priors(), wb::enginePredictor(*catalog));
        for (const std::string &why : report.unpredicted)
            std::fprintf(stderr, "gpuwb: %s\n", wb::limits::printable(why, 4000).c_str());
        const std::string json = report.table.toJson("gpuwb calibrate " + path);
        if (outPath.isEmpty())
            return writeOutput(json, {});
        if (int rc = writeOutput(json, outPath))
            return rc;
        return writeOutput(wb::calibrationMarkdown(report), {});
    }

    return fail(kBadInput, "\"" + command.toStdString() + "\" is not a command: use catalog, evaluate, project or calibrate");
}
