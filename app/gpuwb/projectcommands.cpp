// gpuwb's project-file commands: evidence, checklist, record, report and project (cli.h).
#include "cli.h"

#include <core/fileio.h>
#include <core/limits.h>
#include <evidence/evidence.h>
#include <procurement/plan.h>
#include <procurement/vendors.h>
#include <usecase/records.h>
#include <usecase/scenario.h>

#include <fmt/format.h>

#ifdef WB_WITH_PDF
#include <pdf/recordpdf.h>
#endif

#include <QFileInfo>

#include <cmath>
#include <cstdio>
#include <string>

namespace gpuwb {

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
    const auto compared = wb::compareEvidence(*brief, runs, picked->evidenceCalibration, catalog);
    return writeOutput(compareFormat == QLatin1String("json")
                           ? wb::evidenceComparisonJson(runs, compared.predictions, compared.calibrations)
                           : wb::evidenceComparisonMarkdown(runs, compared.predictions, compared.calibrations),
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
    auto again = wb::recomputeRecord(*view, stored->scenario, catalog, *tmpl, project->checklist());
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

} // namespace gpuwb
