#include "parts/figures.h"

#include "parts/messagetext.h"

#include <QCoreApplication>
#include <QFont>
#include <QLocale>

#include <map>
#include <string>

namespace wb::figures {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Figures", text);
}

} // namespace

QString whyMissing(const CandidateResult &result)
{
    const Warning *w = whyNotCosted(result);
    if (!w)
        return result.cost.computed ? QString() : tr("not computed");
    static const std::map<std::string, const char *> words = {
        {"engine-error", QT_TRANSLATE_NOOP("Figures", "engine error")},
        {"cancelled", QT_TRANSLATE_NOOP("Figures", "cancelled")},
        {"unknown-gpu", QT_TRANSLATE_NOOP("Figures", "unknown GPU")},
        {"precision-unsupported", QT_TRANSLATE_NOOP("Figures", "unsupported precision")},
        {"does-not-fit", QT_TRANSLATE_NOOP("Figures", "does not fit")},
        {"performance-not-modelled", QT_TRANSLATE_NOOP("Figures", "not modelled yet")},
        {"performance-not-computed", QT_TRANSLATE_NOOP("Figures", "no performance")},
        {"cost-not-modelled", QT_TRANSLATE_NOOP("Figures", "not modelled yet")},
        {"no-price", QT_TRANSLATE_NOOP("Figures", "no price")},
        {"cost-not-computed", QT_TRANSLATE_NOOP("Figures", "misses the SLO")},
    };
    const auto it = words.find(w->code);
    return it != words.end() ? tr(it->second) : tr("not computed");
}

QString whyMissingDetail(const CandidateResult &result)
{
    const Warning *w = whyNotCosted(result);
    return w ? messageText(*w) : QString();
}

QString bandLine(const CandidateResult &result, const std::string &path, double shown, int decimals, const QString &what)
{
    const auto it = result.uncertainty.find(path);
    if (it == result.uncertainty.end() || !(it->second.figure > 0))
        return {};
    const QString prefix = what.isEmpty() ? QString() : what + QStringLiteral(": ");
    // The band is of the figure at `path`; a cell may show it in other units or as deployed
    // (the replicas for the peak): the band's ratios to its figure carry over.
    const Band &b = it->second;
    if (b.p10 == b.p90)
        return prefix + tr("not a prediction: the load the brief offers, which the candidate carries");
    const double scale = shown / b.figure;
    const QLocale l;
    QString text = prefix
        + tr("P10-P90 %1 to %2; measured values near such predictions centre on %3 (how far to trust it: from the %4)")
              .arg(l.toString(b.p10 * scale, 'f', decimals), l.toString(b.p90 * scale, 'f', decimals),
                   l.toString(b.p50 * scale, 'f', decimals), QString::fromStdString(b.basis));
    // Tooltips do not wrap plain text: break it at spaces into lines of about 90 characters.
    constexpr int kWidth = 90;
    for (int start = 0, space = -1; start + kWidth < text.size(); start = space + 1) {
        space = text.lastIndexOf(QLatin1Char(' '), start + kWidth);
        if (space <= start)
            break;
        text[space] = QLatin1Char('\n');
    }
    return text;
}

std::optional<std::size_t> optionIndex(const CandidateResult &result, const CostOption *option)
{
    const auto &options = result.cost.options;
    for (std::size_t i = 0; option && i < options.size(); ++i)
        if (&options[i] == option)
            return i;
    return std::nullopt;
}

std::string optionCostPath(std::size_t index)
{
    return "cost.options." + std::to_string(index) + ".cost_per_accepted_output_usd";
}

QString provisionalNote()
{
    return tr("First answer from short simulations: provisional until the full evaluation replaces it.");
}

QString glossaryHint(const QString &term)
{
    return QCoreApplication::translate("Figures", "\n%1 is explained in the glossary: Help > Guide and Glossary (F1).").arg(term);
}

QVariant provisional(const Results &results, int role)
{
    if (!results.preview)
        return {};
    if (role == Qt::FontRole) {
        QFont font;
        font.setItalic(true);
        return font;
    }
    if (role == Qt::ToolTipRole)
        return provisionalNote();
    return {};
}

} // namespace wb::figures
