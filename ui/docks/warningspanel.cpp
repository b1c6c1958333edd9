#include "docks/warningspanel.h"

#include "document/document.h"

#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

#include <map>

namespace wb {

WarningsPanel::WarningsPanel(Document *document, Pages pages, QWidget *parent)
    : QWidget(parent), m_document(document), m_pages(pages)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("<b>Warnings</b> (click one to go to what fixes it)"), this));
    m_list = new QListWidget(this);
    m_list->setAccessibleName(tr("Warnings"));
    m_list->setWordWrap(true);
    m_list->setAlternatingRowColors(true);
    m_list->setToolTip(tr("Click a warning to go to the field or page that fixes it"));
    const auto goToItem = [this](QListWidgetItem *item) {
        if (item && !item->data(Qt::UserRole).toString().isEmpty())
            emit goTo(item->data(Qt::UserRole).toString());
    };
    connect(m_list, &QListWidget::itemClicked, this, goToItem);
    connect(m_list, &QListWidget::itemActivated, this, goToItem);
    layout->addWidget(m_list, 1);
    connect(document, &Document::resultsChanged, this, &WarningsPanel::showWarnings);
    showWarnings();
}

void WarningsPanel::showWarnings()
{
    const Results &results = m_document->results();
    m_list->clear();
    const auto add = [this](const QString &text, const Warning &w) {
        auto *item = new QListWidgetItem(text);
        item->setToolTip(QString::fromStdString(w.code));
        item->setData(Qt::UserRole, fixFor(w.code));
        m_list->addItem(item);
    };
    if (results.engineError)
        m_list->addItem(tr("Engine failure: %1").arg(QString::fromStdString(*results.engineError)));
    for (const Warning &w : results.briefWarnings)
        add(tr("Brief: %1").arg(QString::fromStdString(w.message)), w);
    // The seed's common mistakes are about fit, topology, acceptance and ownership as much as
    // cost: they are labelled as what they are.
    for (const Warning &w : results.cost.warnings)
        add(w.code.rfind("mistake-", 0) == 0 ? tr("Common mistake: %1").arg(QString::fromStdString(w.message))
                                             : tr("Cost: %1").arg(QString::fromStdString(w.message)),
            w);
    // Each candidate's warnings, then those of the deployment it was sized to, if any.
    const auto candidateWarnings = [&](const CandidateResult &r) {
        for (const Warning &w : r.warnings) {
            if (w.code == "catalog-caveat")
                continue;  // shown in the fit table's tooltips, not repeated here
            add(tr("%1 × %2: %3")
                    .arg(r.candidate.gpus)
                    .arg(QString::fromStdString(r.gpuName.empty() ? r.candidate.gpu : r.gpuName))
                    .arg(QString::fromStdString(w.message)),
                w);
        }
    };
    for (const CandidateResult &r : results.results) {
        candidateWarnings(r);
        if (r.resized)
            candidateWarnings(*r.resized);
    }
    if (m_list->count() == 0)
        m_list->addItem(tr("No warnings."));
}

// Where a warning is fixed: a field of the brief (a JSON pointer) or a page ("#N").
QString WarningsPanel::fixFor(const std::string &code) const
{
    const auto page = [](int n) { return QStringLiteral("#%1").arg(n); };
    const std::map<std::string, QString> fixes = {
        {"mistake-platform-responsibility", QStringLiteral("/assumptions/platform_fte_self_hosted")},
        {"mistake-generated-not-accepted", QStringLiteral("/workload/acceptance")},
        {"brief-incomplete", page(m_pages.brief)},
        {"no-api-volume", QStringLiteral("/cost/requests_per_month")},
        {"mistake-hourly-rate", page(m_pages.compare)},
        {"mistake-fit-yes-no", page(m_pages.fit)},
        {"mistake-todays-model", page(m_pages.fit)},
        {"mistake-interconnect", page(m_pages.candidates)},
        {"commitment-vs-certainty", QStringLiteral("/cost/decision/demand_certainty")},
        {"cold-start", QStringLiteral("/cost/billing")},
        {"checklist-evidence-missing", page(m_pages.checklist)},
        {"scheduled-window-traffic", QStringLiteral("/cost/billing")},
    };
    const auto it = fixes.find(code);
    return it == fixes.end() ? QString() : it->second;
}

} // namespace wb
