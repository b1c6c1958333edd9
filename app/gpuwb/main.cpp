// gpuwb: evaluate briefs and list the catalogs from the command line.
// Exit codes (../shared/spec/brief-and-results-v1.md): 0 evaluated, 2 bad input (one line on
// stderr naming the file and the field), 1 anything else.

#include <engine/brief.h>
#include <engine/catalog.h>
#include <engine/evaluate.h>
#include <engine/fileio.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QStringList>

#include <cstdio>
#include <string>

namespace {

constexpr int kBadInput = 2;
constexpr int kFailure = 1;

int fail(int code, const std::string &message)
{
    std::fprintf(stderr, "gpuwb: %s\n", message.c_str());
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
        "  evaluate BRIEF.json     evaluate a brief (--format table|json|csv, --out FILE)\n\n"
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
    if (args.size() != 2)
        return fail(kBadInput, "expected a command and one argument: gpuwb catalog gpus|models, or gpuwb evaluate "
                               "BRIEF.json (see gpuwb --help)");
    const QString command = args.at(0);
    const QString format = parser.value(formatOption);
    const QString outPath = parser.value(outOption);

    auto catalog = wb::Catalog::loadDefault();
    if (!catalog)
        return fail(kBadInput, catalog.error().toString());
    for (const QString &extra : parser.values(catalogOption)) {
        wb::Status loaded = catalog.value().loadFile(extra.toStdString());
        if (!loaded)
            return fail(kBadInput, loaded.error().toString());
    }

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
        if (args.at(1).endsWith(QLatin1String(".gpuwb")))
            return fail(kBadInput, path + ": project files are not readable by this version yet; export the scenario "
                                          "as a brief JSON and evaluate that");
        auto brief = wb::loadBrief(path, *catalog);
        if (!brief)
            return fail(kBadInput, brief.error().toString());
        const wb::Results results = wb::evaluate(*brief, *catalog);
        std::string text;
        if (format == QLatin1String("json"))
            text = wb::resultsToJson(*brief, results);
        else if (format == QLatin1String("csv"))
            text = wb::resultsToCsv(*brief, results);
        else
            text = wb::resultsToTable(*brief, results);
        return writeOutput(text, outPath);
    }

    return fail(kBadInput, "\"" + command.toStdString() + "\" is not a command: use catalog or evaluate");
}
