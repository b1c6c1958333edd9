// gpuwb search BRIEF.json|PROJECT.gpuwb [--gpus id,...|--all] [--max-gpus N] [--format table|json|csv]
#include "cli.h"

#include <evaluate/search.h>
#include <report/report.h>
#include <store/project.h>

namespace gpuwb {

int searchCommand(const QCommandLineParser &parser, const QStringList &args, const wb::Catalog &catalog)
{
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("table") && format != QLatin1String("json") && format != QLatin1String("csv"))
        return fail(kBadInput, "--format: \"" + format.toStdString() + "\" is not table, json or csv");
    const QString path = args.at(1);
    const auto project = isProjectFile(path);
    if (!project)
        return fail(kBadInput, project.error().toString());
    std::optional<wb::Brief> brief;
    if (*project) {
        auto opened = wb::Project::open(path.toStdString(), wb::OpenAccess::ReadOnly);
        if (!opened)
            return fail(kBadInput, opened.error().toString());
        auto picked = pickScenario(*opened, path.toStdString(), parser.value(QStringLiteral("scenario")));
        if (!picked)
            return fail(kBadInput, picked.error().toString());
        auto b = wb::scenarioBrief(*opened, picked->name, catalog, path.toStdString());
        if (!b)
            return fail(kBadInput, b.error().toString());
        brief = std::move(b).value();
    } else {
        auto b = wb::loadBrief(path.toStdString(), catalog);
        if (!b)
            return fail(kBadInput, b.error().toString());
        brief = std::move(b).value();
    }

    wb::SearchOptions options;
    const bool all = parser.isSet(QStringLiteral("all"));
    if (parser.isSet(QStringLiteral("gpus"))) {
        if (all)
            return fail(kBadInput, "--gpus and --all: give one (--all searches every catalog GPU)");
        for (const QString &item : parser.value(QStringLiteral("gpus")).split(QLatin1Char(','))) {
            const std::string gpu = item.trimmed().toLower().toStdString();  // catalog ids are lower case
            if (gpu.empty())
                continue;
            if (!catalog.gpu(gpu))
                return fail(kBadInput, "--gpus: \"" + gpu + "\" is not in the GPU catalog (gpuwb catalog gpus lists the ids)");
            if (std::find(options.gpus.begin(), options.gpus.end(), gpu) == options.gpus.end())
                options.gpus.push_back(gpu);
        }
        if (options.gpus.empty())
            return fail(kBadInput, "--gpus: no GPU id given (a comma-separated list, or --all)");
    } else if (!all) {
        // The brief's own GPUs unless --all asks for the whole catalog.
        for (const wb::Candidate &c : brief->candidates)
            if (std::find(options.gpus.begin(), options.gpus.end(), c.gpu) == options.gpus.end())
                options.gpus.push_back(c.gpu);
        if (options.gpus.empty())
            return fail(kBadInput, path.toStdString() + ": the brief has no candidates; name GPUs with --gpus or search them all with --all");
    }
    auto maxGpus = countOption(parser, QStringLiteral("max-gpus"), 4096);
    if (!maxGpus)
        return fail(kBadInput, maxGpus.error().toString());
    if (*maxGpus)
        options.maxGpus = **maxGpus;

    std::string why;
    const auto result = wb::searchLayouts(*brief, catalog, options, &why);
    if (!result)
        return fail(kBadInput, path.toStdString() + ": " + why);
    const std::string text = format == QLatin1String("json") ? wb::searchToJson(*brief, *result)
        : format == QLatin1String("csv")                     ? wb::searchToCsv(*brief, *result)
                                                             : wb::searchToTable(*brief, *result);
    return writeOutput(text, parser.value(QStringLiteral("out")));
}

} // namespace gpuwb
