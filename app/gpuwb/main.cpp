// gpuwb: evaluate briefs and list the catalogs from the command line.
// Exit codes (../shared/spec/brief-and-results-v1.md): 0 evaluated, 2 bad input (one line on
// stderr naming the file and the field), 1 anything else.

#include <brief/brief.h>
#include <catalog/catalog.h>
#include <evaluate/calibration.h>
#include <evaluate/evaluate.h>
#include <evidence/evidence.h>
#include "report/report.h"
#include "report/xlsx.h"
#include <core/fileio.h>
#include <core/limits.h>
#include <procurement/gate.h>
#include <procurement/plan.h>
#include <procurement/vendors.h>
#include <record/record.h>
#include <store/project.h>

#include <fmt/format.h>

#ifdef WB_WITH_PDF
#include <pdf/recordpdf.h>

#include <QGuiApplication>
#endif
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QStringList>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
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

// A brief or a project's scenario, evaluated; a project's vendor checklist gates its
// recommendation (procurement/gate.h).
struct Evaluated
{
    wb::Brief brief;
    wb::Results results;
    std::optional<wb::Sheet> checklist;   // a project's vendor checklist, for the workbook
};
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
    auto brief = wb::scenarioBrief(*opened, picked->name, catalog, path);
    if (!brief)
        return brief.error();
    auto tmpl = wb::checklistTemplateOf(*opened);
    if (!tmpl)
        return tmpl.error();
    // The scenario's measured runs calibrate its candidates' step models (unless switched off).
    wb::Results results =
        wb::evaluateWithEvidence(*brief, catalog, opened->evidence(picked->name), picked->evidenceCalibration).results;
    wb::gateByChecklist(results, picked->name, *tmpl, opened->checklist());
    return Evaluated{std::move(brief).value(), std::move(results), wb::checklistSheet(*tmpl, opened->checklist())};
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

// gpuwb evidence import PROJECT FILE --scenario S --candidate N [--gpu ID ...], gpuwb evidence list
// PROJECT [--scenario S] [--format table|json], gpuwb evidence compare PROJECT [--scenario S]
// [--format md|json].
int evidenceCommand(const QCommandLineParser &parser, const QStringList &args, const wb::Catalog &catalog)
{
    const QString verb = args.value(1);
    const std::string file = args.value(2).toStdString();
    const QString scenario = parser.value(QStringLiteral("scenario"));
    if (verb == QLatin1String("import")) {
        if (args.size() != 4 || scenario.isEmpty() || !parser.isSet(QStringLiteral("candidate")))
            return fail(kBadInput, "usage: gpuwb evidence import PROJECT.gpuwb RESULTS-FILE --scenario NAME --candidate N "
                                   "[--gpu ID] [--gpus N] [--tensor-parallel N] [--stack vllm|sglang|trtllm|generic] "
                                   "[--rate R | --concurrency C] [--input-tokens N] [--output-tokens N] [--by NAME]");
        auto project = openForWriting(file);
        if (!project)
            return fail(kBadInput, project.error().toString());
        auto picked = pickScenario(*project, file, scenario);
        if (!picked)
            return fail(kBadInput, picked.error().toString());
        wb::RunMapping mapping;
        mapping.gpu = parser.value(QStringLiteral("gpu")).toStdString();
        if (!mapping.gpu.empty() && !catalog.gpu(mapping.gpu))
            return fail(kBadInput, "--gpu: \"" + mapping.gpu + "\" is not a GPU of the catalog (see gpuwb catalog gpus)");
        if (parser.isSet(QStringLiteral("stack"))) {
            mapping.stack = wb::enumFromString<wb::ServingStack>(parser.value(QStringLiteral("stack")).toStdString());
            if (!mapping.stack)
                return fail(kBadInput, "--stack: must be " + wb::enumChoices<wb::ServingStack>());
        }
        auto candidate = countOption(parser, QStringLiteral("candidate"), 100000);
        auto gpus = countOption(parser, QStringLiteral("gpus"), 100000);
        auto tp = countOption(parser, QStringLiteral("tensor-parallel"), 1024);
        auto concurrency = countOption(parser, QStringLiteral("concurrency"), 1000000);
        auto rate = positiveOption(parser, QStringLiteral("rate"));
        auto input = positiveOption(parser, QStringLiteral("input-tokens"));
        auto output = positiveOption(parser, QStringLiteral("output-tokens"));
        const wb::Error *bad = nullptr;
        for (const auto *r : {&candidate, &gpus, &tp, &concurrency})
            if (!*r && !bad)
                bad = &r->error();
        for (const auto *r : {&rate, &input, &output})
            if (!*r && !bad)
                bad = &r->error();
        if (bad)
            return fail(kBadInput, bad->toString());
        if (*rate && *concurrency)
            return fail(kBadInput, "--rate and --concurrency: give one load, not both");
        mapping.gpus = *gpus;
        mapping.tensorParallel = *tp;
        mapping.concurrency = *concurrency;
        mapping.requestRatePerS = *rate;
        mapping.inputTokens = *input;
        mapping.outputTokens = *output;
        auto runs = wb::prepareEvidence(*project, args.value(3).toStdString(), picked->name, std::size_t(**candidate - 1),
                                        mapping, parser.value(QStringLiteral("by")).toStdString(), catalog);
        if (!runs)
            return fail(kBadInput, runs.error().toString());
        for (const wb::EvidenceRun &run : *runs)
            if (auto stored = project->putEvidence(run); !stored)
                return fail(kFailure, stored.error().toString());
        if (wb::Status saved = project->save(file); !saved)
            return fail(kFailure, saved.error().toString());
        std::printf("imported %zu run%s into scenario \"%s\", candidate %d\n", runs->size(), runs->size() == 1 ? "" : "s",
                    wb::limits::printable(picked->name).c_str(), **candidate);
        return 0;
    }
    if ((verb != QLatin1String("list") && verb != QLatin1String("compare")) || args.size() != 3)
        return fail(kBadInput, "usage: gpuwb evidence import|list|compare PROJECT.gpuwb ... (see gpuwb --help)");
    const QString format = parser.value(QStringLiteral("format"));
    auto project = wb::Project::open(file, wb::OpenAccess::ReadOnly);
    if (!project)
        return fail(kBadInput, project.error().toString());
    if (verb == QLatin1String("list")) {
        if (format != QLatin1String("table") && format != QLatin1String("json"))
            return fail(kBadInput, "--format: \"" + format.toStdString() + "\" is not table or json");
        std::string only;
        if (!scenario.isEmpty()) {
            auto picked = pickScenario(*project, file, scenario);
            if (!picked)
                return fail(kBadInput, picked.error().toString());
            only = picked->name;
        }
        const auto runs = project->evidence(only);
        return writeOutput(format == QLatin1String("json") ? wb::evidenceListJson(runs) : wb::evidenceListTable(runs),
                           parser.value(QStringLiteral("out")));
    }
    const QString compareFormat = parser.isSet(QStringLiteral("format")) ? format : QStringLiteral("md");
    if (compareFormat != QLatin1String("md") && compareFormat != QLatin1String("json"))
        return fail(kBadInput, "--format: \"" + compareFormat.toStdString() + "\" is not md or json");
    auto picked = pickScenario(*project, file, scenario);
    if (!picked)
        return fail(kBadInput, picked.error().toString());
    auto brief = wb::scenarioBrief(*project, picked->name, catalog, file);
    if (!brief)
        return fail(kBadInput, brief.error().toString());
    const auto runs = project->evidence(picked->name);
    const auto calibrations = picked->evidenceCalibration
                                  ? wb::calibrateFromEvidence(*brief, runs, catalog, catalog.efficiency())
                                  : std::vector<wb::EvidenceCalibration>{};
    const auto predictions = wb::predictRuns(*brief, runs, catalog, catalog.efficiency(), calibrations);
    return writeOutput(compareFormat == QLatin1String("json") ? wb::evidenceComparisonJson(runs, predictions, calibrations)
                                                              : wb::evidenceComparisonMarkdown(runs, predictions, calibrations),
                       parser.value(QStringLiteral("out")));
}

// gpuwb checklist PROJECT [--vendor NAME] --format csv|json, and gpuwb checklist import PROJECT FILE.json
int checklistCommand(const QStringList &args, const QString &vendor, const QString &format, const QString &outPath)
{
    if (args.value(1) == QLatin1String("import")) {
        if (args.size() != 4)
            return fail(kBadInput, "usage: gpuwb checklist import PROJECT.gpuwb ANSWERS.json");
        const std::string file = args.at(2).toStdString();
        auto project = openForWriting(file);
        if (!project)
            return fail(kBadInput, project.error().toString());
        auto tmpl = wb::checklistTemplateOf(*project);
        if (!tmpl)
            return fail(kFailure, tmpl.error().toString());
        auto merged = wb::importAnswers(*project, args.at(3).toStdString(), *tmpl);
        if (!merged)
            return fail(kBadInput, merged.error().toString());
        if (wb::Status put = project->putChecklist(*merged); !put)
            return fail(kBadInput, args.at(3).toStdString() + ": " + put.error().message);
        wb::Status saved = project->save(file);
        return saved ? 0 : fail(kFailure, saved.error().toString());
    }
    if (args.size() != 2)
        return fail(kBadInput, "usage: gpuwb checklist PROJECT.gpuwb [--vendor NAME] --format csv|json");
    if (format != QLatin1String("csv") && format != QLatin1String("json"))
        return fail(kBadInput, "--format: \"" + format.toStdString() + "\" is not csv or json");
    const std::string file = args.at(1).toStdString();
    auto project = wb::Project::open(file, wb::OpenAccess::ReadOnly);
    if (!project)
        return fail(kBadInput, project.error().toString());
    auto tmpl = wb::checklistTemplateOf(*project);
    if (!tmpl)
        return fail(kFailure, tmpl.error().toString());
    const wb::ProjectChecklist checklist = project->checklist();
    if (!vendor.isEmpty() && !checklist.vendor(vendor.toStdString())) {
        std::string names;
        for (const wb::Vendor &v : checklist.vendors)
            names += (names.empty() ? "" : ", ") + ("\"" + v.name + "\"");
        return fail(kBadInput, file + ": has no vendor \"" + vendor.toStdString() + "\"" +
                                   (names.empty() ? std::string(" (it has none yet)") : " (it has " + names + ")"));
    }
    const std::string only = vendor.toStdString();
    return writeOutput(format == QLatin1String("csv") ? wb::checklistToCsv(*tmpl, checklist, only)
                                                      : wb::answersToJson(*tmpl, checklist, only),
                       outPath);
}

// The named scenario's (the first's by default) inputs for a decision record.
wb::Result<wb::ScenarioSnapshot> snapshotOf(const wb::Project &project, const std::string &file, const QString &scenario)
{
    auto picked = pickScenario(project, file, scenario);
    if (!picked)
        return picked.error();
    return wb::scenarioSnapshot(project, picked->name);
}

// gpuwb record new|list|show|recompute PROJECT.gpuwb ...
int recordCommand(const QCommandLineParser &parser, const QStringList &args, const wb::Catalog &catalog)
{
    const QString verb = args.value(1);
    const std::string file = args.value(2).toStdString();
    const QString format = parser.value(QStringLiteral("format"));
    const QString outPath = parser.value(QStringLiteral("out"));
    if (args.size() != 3)
        return fail(kBadInput, "usage: gpuwb record new|list|show|recompute PROJECT.gpuwb [options] (see gpuwb --help)");
    if (verb == QLatin1String("new")) {
        wb::RecordDecision d;
        const bool api = parser.isSet(QStringLiteral("api"));
        const bool hybrid = parser.isSet(QStringLiteral("hybrid"));
        if (api == parser.isSet(QStringLiteral("candidate")))
            return fail(kBadInput, "record new: name the option chosen, either --candidate N (from 1) with --term or "
                                   "--hybrid, or --api");
        if (!api) {
            auto n = countOption(parser, QStringLiteral("candidate"), 1000);
            if (!n)
                return fail(kBadInput, n.error().toString());
            d.candidate = std::size_t(**n - 1);
            d.hybrid = hybrid;
            if (!hybrid) {
                const std::string term = parser.value(QStringLiteral("term")).toStdString();
                d.term = wb::enumFromString<wb::PricingTerm>(term);
                if (!d.term)
                    return fail(kBadInput, "--term: \"" + term + "\" is not on-demand, spot, reserved-1y, reserved-3y or purchase");
            }
        }
        d.rationale = parser.value(QStringLiteral("rationale")).toStdString();
        for (const QString &name : parser.values(QStringLiteral("sign-off")))
            d.signOff.push_back(name.toStdString());
        d.date = parser.isSet(QStringLiteral("date")) ? parser.value(QStringLiteral("date")).toStdString() : wb::todayIso();
        auto project = openForWriting(file);
        if (!project)
            return fail(kBadInput, project.error().toString());
        auto snapshot = snapshotOf(*project, file, parser.value(QStringLiteral("scenario")));
        if (!snapshot)
            return fail(kBadInput, snapshot.error().toString());
        const std::string created = wb::nowUtcIso();
        auto content = wb::recordScenario(*snapshot, catalog, d, created);
        if (!content) {
            // The record's fields by the options that give them.
            std::string field = content.error().path;
            for (const auto &[pointer, option] : {std::pair{"/decision/candidate", "--candidate"}, {"/decision/term", "--term"},
                                                  {"/decision/route", "--api/--hybrid"}, {"/decision/rationale", "--rationale"},
                                                  {"/decision/sign_off", "--sign-off"}, {"/decision/date", "--date"}})
                if (field == pointer)
                    field = option;
            return fail(kBadInput, file + ": " + (field.empty() ? std::string() : field + ": ") + content.error().message
                                       + "; nothing recorded");
        }
        auto id = project->putRecord(snapshot->scenario, created, *content);
        if (!id)
            return fail(kFailure, file + ": " + id.error().toString());
        if (wb::Status saved = project->save(file); !saved)
            return fail(kFailure, saved.error().toString());
        return writeOutput(std::to_string(*id) + "\n", outPath);
    }

    auto project = wb::Project::open(file, wb::OpenAccess::ReadOnly);
    if (!project)
        return fail(kBadInput, project.error().toString());
    if (verb == QLatin1String("list")) {
        std::string text;
        for (const wb::StoredRecord &r : project->records(parser.value(QStringLiteral("scenario")).toStdString())) {
            auto view = wb::readDecisionRecord(r.contentJson, file);
            text += fmt::format("{}\t{}\t{}\t{}\t{}\n", r.id, wb::limits::printable(r.scenario, 200), r.created,
                                view ? (view->intact ? "intact" : "CHANGED AFTER RECORDING") : "damaged",
                                wb::limits::printable(view ? view->decisionText : view.error().message, 400));
        }
        return writeOutput(text, outPath);
    }
    if (verb != QLatin1String("show") && verb != QLatin1String("recompute"))
        return fail(kBadInput, "record: \"" + verb.toStdString() + "\" is not new, list, show or recompute");
    bool ok = false;
    const long long id = parser.value(QStringLiteral("record")).toLongLong(&ok);
    std::optional<wb::StoredRecord> stored;
    for (const wb::StoredRecord &r : project->records())
        if (ok && r.id == id)
            stored = r;
    if (!stored)
        return fail(kBadInput, file + ": --record: \"" + parser.value(QStringLiteral("record")).toStdString()
                                   + "\" is not a record of this project (gpuwb record list shows them)");
    auto view = wb::readDecisionRecord(stored->contentJson, file + " (record " + std::to_string(id) + ")");
    if (!view)
        return fail(kBadInput, view.error().toString());
    if (verb == QLatin1String("show"))
        return writeOutput(stored->contentJson + "\n", outPath);
    auto tmpl = wb::checklistTemplateOf(*project);
    if (!tmpl)
        return fail(kFailure, tmpl.error().toString());
    const wb::ProjectChecklist checklist = project->checklist();
    const std::string scenario = stored->scenario;
    wb::RecomputeWith with;
    with.catalog = &catalog;
    with.checklistJson = wb::answersToJson(*tmpl, checklist, {});
    with.gate = [&](wb::Results &r) { wb::gateByChecklist(r, scenario, *tmpl, checklist); };
    auto again = wb::recomputeDecisionRecord(*view, with);
    if (!again)
        return fail(kBadInput, again.error().toString());
    return writeOutput(format == QLatin1String("json") ? wb::recomputationJson(*view, *again)
                                                       : wb::recomputationMarkdown(*view, *again),
                       outPath);
}

// gpuwb report PROJECT.gpuwb|BRIEF.json [--scenario NAME] [--record ID] --out FILE.pdf [--page a4|letter]:
// a stored record, or the scenario as it stands (a draft), as a PDF.
int reportCommand(const QCommandLineParser &parser, const QStringList &args, const wb::Catalog &catalog)
{
    const QString outPath = parser.value(QStringLiteral("out"));
    if (outPath.isEmpty())
        return fail(kBadInput, "--out: a report needs a file to go to (gpuwb report ... --out FILE.pdf)");
    const QString page = parser.isSet(QStringLiteral("page")) ? parser.value(QStringLiteral("page")) : QStringLiteral("a4");
    if (page != QLatin1String("a4") && page != QLatin1String("letter"))
        return fail(kBadInput, "--page: \"" + page.toStdString() + "\" is not a4 or letter");
    std::string content;
    if (parser.isSet(QStringLiteral("record"))) {
        const std::string file = args.at(1).toStdString();
        auto project = wb::Project::open(file, wb::OpenAccess::ReadOnly);
        if (!project)
            return fail(kBadInput, project.error().toString());
        bool ok = false;
        const long long id = parser.value(QStringLiteral("record")).toLongLong(&ok);
        for (const wb::StoredRecord &r : project->records())
            if (ok && r.id == id)
                content = r.contentJson;
        if (content.empty())
            return fail(kBadInput, file + ": --record: \"" + parser.value(QStringLiteral("record")).toStdString()
                                       + "\" is not a record of this project (gpuwb record list shows them)");
        auto view = wb::readDecisionRecord(content, file);
        if (!view)
            return fail(kBadInput, view.error().toString());
        if (!view->intact)
            std::fprintf(stderr, "gpuwb: warning: record %lld was changed after it was recorded (its SHA-256 does not match)\n", id);
    } else {
        // The scenario as it stands: a project's (its runs, switch and checklist), or a brief's.
        wb::ScenarioSnapshot snapshot;
        const auto isProject = isProjectFile(args.at(1));
        if (!isProject)
            return fail(kBadInput, isProject.error().toString());
        if (*isProject) {
            const std::string file = args.at(1).toStdString();
            auto project = wb::Project::open(file, wb::OpenAccess::ReadOnly);
            if (!project)
                return fail(kBadInput, project.error().toString());
            auto taken = snapshotOf(*project, file, parser.value(QStringLiteral("scenario")));
            if (!taken)
                return fail(kBadInput, taken.error().toString());
            snapshot = std::move(taken).value();
        } else {
            auto text = wb::readTextFile(args.at(1).toStdString());
            if (!text)
                return fail(kBadInput, text.error().toString());
            auto brief = wb::parseBrief(*text, args.at(1).toStdString(), catalog);
            if (!brief)
                return fail(kBadInput, brief.error().toString());
            snapshot.scenario = brief->name;
            snapshot.briefJson = *text;
        }
        auto draft = wb::recordScenario(snapshot, catalog, std::nullopt, wb::nowUtcIso());
        if (!draft)
            return fail(kBadInput, draft.error().toString());
        content = *draft;
    }
#ifdef WB_WITH_PDF
    wb::RecordPdfOptions options;
    options.page = page == QLatin1String("letter") ? QPageSize::Letter : QPageSize::A4;
    // Through the one atomic writer, so that a device, a FIFO or a read-only file is refused as
    // everywhere else; the PDF goes to its temporary file.
    const wb::Status written = wb::writeAtomically(outPath.toStdString(), [&](const std::string &temp) -> wb::Status {
        const QString error = wb::writeRecordPdf(QByteArray::fromStdString(content), QString::fromStdString(temp), options);
        if (!error.isEmpty())
            return wb::Error{outPath.toStdString(), "", error.toStdString()};
        return wb::Ok{};
    });
    return written ? 0 : fail(kFailure, written.error().toString());
#else
    (void)page;
    (void)content;
    return fail(kFailure, "this gpuwb was built without the PDF writer (WB_BUILD_GUI=OFF)");
#endif
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
        auto project = openForWriting(file);
        if (!project)
            return fail(kBadInput, project.error().toString());
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
        "  evaluate BRIEF.json     evaluate a brief (--format table|json|csv, --out FILE)\n"
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
    const QCommandLineOption vendorOption(QStringLiteral("vendor"), QStringLiteral("One vendor of the checklist."),
                                          QStringLiteral("name"));
    const QCommandLineOption candidateOption(QStringLiteral("candidate"),
                                             QStringLiteral("One candidate of the plan, counting from 1."),
                                             QStringLiteral("n"));
    parser.addOptions({formatOption, outOption, catalogOption, scenarioOption, vendorOption, candidateOption});
    // Evidence import: what a results file may not say.
    for (const auto &[name, what] : {std::pair{"gpu", "GPU catalog id of the run"}, {"gpus", "GPUs the run used"},
                                     {"tensor-parallel", "tensor-parallel size of the run"},
                                     {"stack", "serving stack of the run"}, {"rate", "requests/s the run offered"},
                                     {"concurrency", "concurrent requests of the run"},
                                     {"input-tokens", "mean input tokens per request"},
                                     {"output-tokens", "mean output tokens per request"}, {"by", "who imports the file"},
                                     {"term", "pricing term of the option chosen"}, {"rationale", "why the option was chosen"},
                                     {"sign-off", "who signs the record, \"Name, role\" (repeat for each)"},
                                     {"date", "date of the decision (YYYY-MM-DD)"}, {"record", "a decision record's id"},
                                     {"page", "page size of a report: a4 or letter"}})
        parser.addOption(QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(what), QStringLiteral("value")));
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
        return fail(kBadInput, "expected a command and one argument: gpuwb catalog gpus|models|media, or gpuwb evaluate "
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
    if (evidenceVerb)
        return evidenceCommand(parser, args, *catalog);
    if (recordVerb)
        return recordCommand(parser, args, *catalog);

    if (command == QLatin1String("report"))
        return reportCommand(parser, args, *catalog);

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
