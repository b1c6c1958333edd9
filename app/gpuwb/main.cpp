// gpuwb: evaluate briefs and list the catalogs from the command line.
// Exit codes (../shared/spec/brief-and-results-v1.md): 0 evaluated, 2 bad input (one line on
// stderr naming the file and the field), 1 anything else: an exception that escapes a command (a
// bug, or memory exhausted) is caught at the top and said in one line, never an abort.

#include "cli.h"

#include <brief/fields.h>
#include <catalog/catalog.h>
#include <core/fault.h>
#include <core/fileio.h>
#include <core/limits.h>
#include <evaluate/calibration.h>
#include <procurement/plan.h>
#include <report/xlsx.h>

#ifdef WB_WITH_PDF
#include <QGuiApplication>
#endif
#include <QCoreApplication>
#include <QFileInfo>

#include <cstdio>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

using namespace gpuwb;

namespace {

int run(int argc, char *argv[])
{
    // The PDF report needs fonts, hence a GUI application; without a display it uses the
    // offscreen platform. Every other command runs on QtCore alone.
    bool wantsPdf = false;
    for (int i = 1; i < argc && !wantsPdf; ++i)
        wantsPdf = std::string_view(argv[i]) == "report";
#ifdef WB_WITH_PDF
    if (wantsPdf)
        qputenv("QT_QPA_PLATFORM", "offscreen");  // a PDF needs fonts, never a display
    if (wantsPdf)
        // Qt's note that it made up a runtime folder is not the user's business.
        qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &message) {
            if (!message.startsWith(QLatin1String("QStandardPaths:")))
                std::fprintf(stderr, "gpuwb: %s%s\n", type == QtWarningMsg ? "warning: " : "", qPrintable(message));
        });
    std::unique_ptr<QCoreApplication> application(wantsPdf ? new QGuiApplication(argc, argv) : new QCoreApplication(argc, argv));
#else
    std::unique_ptr<QCoreApplication> application(new QCoreApplication(argc, argv));
#endif
    QCoreApplication::setApplicationName(QStringLiteral("gpuwb"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(wb::engineVersion()));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "GPU Workbench command line.\n\n"
        "Commands:\n"
        "  catalog gpus|models|media  list the catalog (--format table|json)\n"
        "  schema brief            the brief's JSON Schema (draft 2020-12), from the engine's table of fields\n"
        "  evaluate BRIEF.json     evaluate a brief (--format table|json|csv, --out FILE)\n"
        "  search BRIEF.json|PROJECT.gpuwb  the cheapest layouts within the SLO: every TP/PP size, acceptable\n"
        "                          precision and serving stack of the brief's GPUs (--gpus id,... or --all),\n"
        "                          at most --max-gpus per deployment (64); --format table|json|csv\n"
        "  evaluate PROJECT.gpuwb  evaluate a scenario of a project (--scenario NAME; the first by default)\n"
        "  export BRIEF.json|PROJECT.gpuwb  the figures as a workbook (--format xlsx --out FILE: normalization\n"
        "                          table, cost lines, fit, performance, assumptions, a project's checklist)\n"
        "                          or the normalization table as CSV (--format csv)\n"
        "  project new FILE.gpuwb [BRIEF.json ...]        create a project (never overwrites)\n"
        "  project import FILE.gpuwb BRIEF.json           add or replace a scenario (--scenario NAME)\n"
        "  project export FILE.gpuwb                      a scenario as brief JSON (--scenario, --out)\n"
        "  project list FILE.gpuwb                        the scenarios' names\n"
        "  checklist PROJECT.gpuwb                        the vendor checklist (--format json|csv, --vendor NAME)\n"
        "  checklist import PROJECT.gpuwb ANSWERS.json    add or update vendors' answers from an answers file\n"
        "  plan BRIEF.json|PROJECT.gpuwb                  the benchmark plan (--format md|json, --scenario,\n"
        "                                                 --candidate N counting from 1)\n"
        "  evidence import PROJECT.gpuwb FILE             import a benchmark result (vLLM, GuideLLM, LLMPerf,\n"
        "                                                 GenAI-Perf/AIPerf, evidence CSV) as runs of --scenario\n"
        "                                                 NAME --candidate N; what the file does not say:\n"
        "                                                 --gpu, --gpus, --tensor-parallel, --stack, --rate or\n"
        "                                                 --concurrency, --input-tokens, --output-tokens; --by NAME\n"
        "  evidence list PROJECT.gpuwb                    the measured runs (--scenario, --format table|json)\n"
        "  evidence compare PROJECT.gpuwb                 runs against predictions before and after calibration\n"
        "                                                 (--scenario, --format md|json)\n"
        "  record new PROJECT.gpuwb                       freeze --scenario NAME into a decision record: the option\n"
        "                                                 chosen (--candidate N with --term T or --hybrid, or --api),\n"
        "                                                 --rationale TEXT, --sign-off \"Name, role\" (repeatable),\n"
        "                                                 --date; prints the record's id\n"
        "  record list PROJECT.gpuwb                      the decision records (--scenario)\n"
        "  record show PROJECT.gpuwb --record ID          a record's content (JSON)\n"
        "  record recompute PROJECT.gpuwb --record ID     the record evaluated again with this version and catalog,\n"
        "                                                 and every input and figure that changed (--format md|json)\n"
        "  report PROJECT.gpuwb|BRIEF.json                the decision record as a PDF (--out FILE.pdf; --record ID,\n"
        "                                                 else the scenario as it stands, a draft; --page a4|letter)\n"
        "  calibrate CASES.csv     fit the efficiency factors to measured cases (--out FILE for the\n"
        "                          calibration JSON, --bands FILE for the P10-P90 bands from the\n"
        "                          group-out errors; the per-case table goes to standard output)\n\n"
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
    const QCommandLineOption vendorOption(QStringLiteral("vendor"), QStringLiteral("One vendor of the checklist."),
                                          QStringLiteral("name"));
    const QCommandLineOption candidateOption(QStringLiteral("candidate"),
                                             QStringLiteral("One candidate of the plan, counting from 1."),
                                             QStringLiteral("n"));
    parser.addOptions({formatOption, outOption, catalogOption, scenarioOption, vendorOption, candidateOption});
    // Evidence import: what a results file may not say.
    for (const auto &[name, what] : {std::pair{"gpu", "GPU catalog id of the run"}, {"gpus", "GPUs the run used (evidence import); GPU ids to search, comma-separated (search)"},
                                     {"max-gpus", "GPUs a searched deployment may use (search; 64)"},
                                     {"tensor-parallel", "tensor-parallel size of the run"},
                                     {"stack", "serving stack of the run"}, {"rate", "requests/s the run offered"},
                                     {"concurrency", "concurrent requests of the run"},
                                     {"input-tokens", "mean input tokens per request"},
                                     {"output-tokens", "mean output tokens per request"}, {"by", "who imports the file"},
                                     {"term", "pricing term of the option chosen"}, {"rationale", "why the option was chosen"},
                                     {"sign-off", "who signs the record, \"Name, role\" (repeat for each)"},
                                     {"date", "date of the decision (YYYY-MM-DD)"}, {"record", "a decision record's id"},
                                     {"page", "page size of a report: a4 or letter"},
                                     {"bands", "where calibrate writes the figures' bands (JSON)"}})
        parser.addOption(QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(what), QStringLiteral("value")));
    parser.addOption(QCommandLineOption(QStringLiteral("all"), QStringLiteral("Search every GPU of the catalog (search).")));
    parser.addOption(QCommandLineOption(QStringLiteral("api"), QStringLiteral("The model API is the option chosen.")));
    parser.addOption(QCommandLineOption(QStringLiteral("hybrid"), QStringLiteral("The candidate's hybrid with the API is chosen.")));
    parser.addPositionalArgument(QStringLiteral("command"), QStringLiteral("catalog or evaluate"));
    parser.addPositionalArgument(QStringLiteral("argument"), QStringLiteral("gpus|models, or the brief file"));

    if (!parser.parse(QCoreApplication::arguments()))
        return fail(kBadInput, parser.errorText().toStdString() + " (see gpuwb --help)");
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();

    if (wb::faultInjected("gpuwb-internal"))
        throw std::logic_error("an internal error injected by a test");

    const QStringList args = parser.positionalArguments();
    // --out never replaces the file a command reads (a project or a brief).
    if (parser.isSet(QStringLiteral("out")) && args.size() >= 2) {
        const QFileInfo out(parser.value(QStringLiteral("out")));
        for (int i = 1; i < args.size(); ++i) {
            const QFileInfo in(args.at(i));
            if (in.exists() && out.exists() && in.canonicalFilePath() == out.canonicalFilePath())
                return fail(kBadInput, "--out: " + parser.value(QStringLiteral("out")).toStdString()
                                           + " is the file this command reads; write to another file");
        }
    }
    const bool projectVerb = args.value(0) == QLatin1String("project");
    const bool checklistVerb = args.value(0) == QLatin1String("checklist");
    const bool evidenceVerb = args.value(0) == QLatin1String("evidence");
    const bool recordVerb = args.value(0) == QLatin1String("record");
    if (checklistVerb) {
        // JSON unless a format is asked for (the table format is the other commands' default).
        const QString format = parser.isSet(formatOption) ? parser.value(formatOption) : QStringLiteral("json");
        return checklistCommand(args, parser.value(vendorOption), format, parser.value(outOption));
    }
    if (projectVerb || evidenceVerb || recordVerb ? args.size() < 3 : args.size() != 2)
        return fail(kBadInput, "expected a command and one argument: gpuwb catalog gpus|models|media, gpuwb schema "
                               "brief, gpuwb evaluate BRIEF.json or gpuwb search BRIEF.json (see gpuwb --help)");
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
    if (evidenceVerb)
        return evidenceCommand(parser, args, *catalog);
    if (recordVerb)
        return recordCommand(parser, args, *catalog);

    if (command == QLatin1String("report"))
        return reportCommand(parser, args, *catalog);
    if (command == QLatin1String("search"))
        return searchCommand(parser, args, *catalog);

    if (command == QLatin1String("catalog")) {
        const QString what = args.at(1);
        if (what != QLatin1String("gpus") && what != QLatin1String("models") && what != QLatin1String("media"))
            return fail(kBadInput, "catalog: \"" + what.toStdString() + "\" is not gpus, models or media");
        if (format != QLatin1String("table") && format != QLatin1String("json"))
            return fail(kBadInput, "--format: \"" + format.toStdString() + "\" is not table or json");
        const bool json = format == QLatin1String("json");
        const std::string text = what == QLatin1String("gpus")
            ? (json ? wb::catalogGpusJson(*catalog) : wb::catalogGpusTable(*catalog))
            : what == QLatin1String("media") ? (json ? wb::catalogMediaJson(*catalog) : wb::catalogMediaTable(*catalog))
                                             : (json ? wb::catalogModelsJson(*catalog) : wb::catalogModelsTable(*catalog));
        return writeOutput(text, outPath);
    }

    if (command == QLatin1String("schema")) {
        if (args.at(1) != QLatin1String("brief"))
            return fail(kBadInput, "schema: \"" + args.at(1).toStdString() + "\" is not brief");
        return writeOutput(wb::briefJsonSchema(*catalog), outPath);
    }

    if (command == QLatin1String("evaluate")) {
        if (format != QLatin1String("table") && format != QLatin1String("json") && format != QLatin1String("csv"))
            return fail(kBadInput, "--format: \"" + format.toStdString() + "\" is not table, json or csv");
        auto done = evaluatePath(args.at(1), parser.value(scenarioOption), *catalog);
        if (!done)
            return fail(kBadInput, done.error().toString());
        return writeOutput(renderResults(format, done->brief, done->results), outPath);
    }

    if (command == QLatin1String("export")) {
        // A workbook unless a format is asked for.
        const QString exportFormat = parser.isSet(formatOption) ? format : QStringLiteral("xlsx");
        if (exportFormat != QLatin1String("xlsx") && exportFormat != QLatin1String("csv"))
            return fail(kBadInput, "--format: \"" + exportFormat.toStdString() + "\" is not xlsx or csv");
        if (exportFormat == QLatin1String("xlsx") && outPath.isEmpty())
            return fail(kBadInput, "--out: a workbook needs a file to go to (gpuwb export ... --format xlsx --out FILE.xlsx)");
        auto done = evaluatePath(args.at(1), parser.value(scenarioOption), *catalog);
        if (!done)
            return fail(kBadInput, done.error().toString());
        if (exportFormat == QLatin1String("csv"))
            return writeOutput(wb::resultsToCsv(done->brief, done->results), outPath);
        std::vector<wb::Sheet> sheets = wb::resultSheets(done->brief, done->results);
        if (done->checklist)
            sheets.push_back(*done->checklist);
        const wb::Status written = wb::writeXlsx(outPath.toStdString(), sheets);
        return written ? 0 : fail(kFailure, written.error().toString());
    }

    if (command == QLatin1String("plan")) {
        // Markdown unless a format is asked for.
        const QString planFormat = parser.isSet(formatOption) ? format : QStringLiteral("md");
        if (planFormat != QLatin1String("md") && planFormat != QLatin1String("json"))
            return fail(kBadInput, "--format: \"" + planFormat.toStdString() + "\" is not md or json");
        auto done = evaluatePath(args.at(1), parser.value(scenarioOption), *catalog);
        if (!done)
            return fail(kBadInput, done.error().toString());
        std::optional<std::size_t> only;
        if (parser.isSet(candidateOption)) {
            bool ok = false;
            const int n = parser.value(candidateOption).toInt(&ok);
            if (!ok || n < 1 || std::size_t(n) > done->brief.candidates.size())
                return fail(kBadInput, "--candidate: \"" + parser.value(candidateOption).toStdString() + "\" is not a candidate "
                                       "of the brief (1 to " + std::to_string(done->brief.candidates.size()) + ")");
            only = std::size_t(n - 1);
        }
        const wb::BenchmarkPlan plan = wb::makeBenchmarkPlan(done->brief, done->results, *catalog, only);
        return writeOutput(planFormat == QLatin1String("json") ? wb::planToJson(plan) : wb::planToMarkdown(plan), outPath);
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
        if (const QString bandsPath = parser.value(QStringLiteral("bands")); !bandsPath.isEmpty())
            if (int rc = writeOutput(wb::residualBands(report, *cases).toJson("gpuwb calibrate " + path), bandsPath))
                return rc;
        if (outPath.isEmpty())
            return writeOutput(json, {});
        if (int rc = writeOutput(json, outPath))
            return rc;
        return writeOutput(wb::calibrationMarkdown(report), {});
    }

    return fail(kBadInput, "\"" + command.toStdString() +
                               "\" is not a command: use catalog, evaluate, export, plan, project, checklist, evidence, "
                               "record, report or calibrate");
}

} // namespace

int main(int argc, char *argv[])
{
    try {
        return run(argc, argv);
    } catch (const std::exception &e) {
        return fail(kFailure, std::string("internal error: ") + e.what());
    } catch (...) {
        return fail(kFailure, "internal error: an exception of unknown type");
    }
}
