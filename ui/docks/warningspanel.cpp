#include "docks/warningspanel.h"

#include "document/document.h"
#include "parts/messagetext.h"

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
        item->setData(Qt::UserRole, fixFor(w));
        m_list->addItem(item);
    };
    if (results.engineError)
        m_list->addItem(tr("Engine failure: %1").arg(QString::fromStdString(*results.engineError)));
    for (const Warning &w : results.briefWarnings)
        add(tr("Brief: %1").arg(messageText(w)), w);
    // The seed's common mistakes are about fit, topology, acceptance and ownership as much as
    // cost: they are labelled as what they are.
    for (const Warning &w : results.cost.warnings)
        add(w.code.rfind("mistake-", 0) == 0 ? tr("Common mistake: %1").arg(messageText(w)) : tr("Cost: %1").arg(messageText(w)),
            w);
    // Each candidate's warnings, then those of the deployment it was sized to, if any.
    const auto candidateWarnings = [&](const CandidateResult &r) {
        for (const Warning &w : r.warnings) {
            if (w.code == "catalog-caveat")
                continue;  // shown in the fit table's tooltips, not repeated here
            add(tr("%1 × %2: %3")
                    .arg(r.candidate.gpus)
                    .arg(QString::fromStdString(r.gpuName.empty() ? r.candidate.gpu : r.gpuName))
                    .arg(messageText(w)),
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

// Where a warning is fixed: the brief field the engine names (a JSON pointer), or, for a warning
// no field changes, the page that shows what it is about ("#N").
QString WarningsPanel::fixFor(const Warning &w) const
{
    if (!w.field.empty())
        return QString::fromStdString(w.field);
    const auto page = [](int n) { return QStringLiteral("#%1").arg(n); };
    const std::map<std::string, QString> pages = {
        {"mistake-hourly-rate", page(m_pages.compare)},  {"mistake-fit-yes-no", page(m_pages.fit)},
        {"mistake-todays-model", page(m_pages.fit)},     {"mistake-interconnect", page(m_pages.candidates)},
        {"checklist-evidence-missing", page(m_pages.checklist)},
        // Measured runs, imported on the Evidence page, calibrate the factor no run backs, and
        // settle a target the band leaves in doubt.
        {"efficiency-uncalibrated", page(m_pages.evidence)}, {"slo-at-band-edge", page(m_pages.evidence)},
    };
    const auto it = pages.find(w.code);
    return it == pages.end() ? QString() : it->second;
}

} // namespace wb
