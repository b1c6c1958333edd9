#include "parts/recommendation.h"

#include "parts/messagetext.h"

#include <report/labels.h>

#include <QCoreApplication>

namespace wb {

QString recommendationHtml(const Results &results)
{
    const std::optional<Recommendation> &rec = results.cost.recommendation;
    if (!results.ranked())
        return QCoreApplication::translate("Recommendation",
                                           "<b>Ranking held back.</b> %1. The figures are shown, but no option is "
                                           "marked best or recommended until then: if you cannot complete the "
                                           "brief, pause the selection.")
            .arg(QString::fromStdString(rankingHeldBackText(results.rankingHeldBackBy, false)).toHtmlEscaped());
    if (!rec)
        return {};
    QString list = QStringLiteral("<ul style=\"margin-top:2px\">");
    for (const Message &reason : rec->reasons)
        list += QStringLiteral("<li>%1</li>").arg(messageText(reason).toHtmlEscaped());
    return QCoreApplication::translate("Recommendation", "<b>Recommendation: %1</b>")
               .arg(QString::fromStdString(recommendationHeadline(results)).toHtmlEscaped())
        + list + QStringLiteral("</ul>");
}

} // namespace wb
