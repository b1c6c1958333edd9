#include "docks/scenariospanel.h"
#include "settings.h"

#include "dialogs/scenariocompare.h"
#include "document/document.h"
#include "parts/pageparts.h"

#include <QAction>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QToolButton>

#include <cmath>

namespace wb {

ScenariosPanel::ScenariosPanel(Document *document, QWidget *parent) : QWidget(parent), m_document(document)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *split = new QSplitter(Qt::Vertical, this);
    outer->addWidget(split);

    auto *scenarioPane = new QWidget(split);
    auto *scenarioLayout = new QVBoxLayout(scenarioPane);
    scenarioLayout->setContentsMargins(0, 0, 0, 0);
    scenarioLayout->addWidget(new QLabel(tr("<b>Scenarios</b>"), scenarioPane));
    m_list = new QListWidget(scenarioPane);
    m_list->setAccessibleName(tr("Scenarios"));
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setTextElideMode(Qt::ElideRight);
    scenarioLayout->addWidget(m_list);
    const auto action = [this](const QString &menuText, const QString &buttonText, const QString &tip, auto slot) {
        auto *a = new QAction(menuText, this);
        a->setIconText(buttonText);
        a->setToolTip(tip);
        connect(a, &QAction::triggered, this, slot);
        m_actions << a;
        return a;
    };
    QAction *add = action(tr("&Add from Brief…"), tr("Add…"), tr("Add a scenario from a brief file"),
                          &ScenariosPanel::addScenario);
    QAction *duplicate = action(tr("D&uplicate"), tr("Duplicate"), tr("Duplicate the selected scenario"),
                                &ScenariosPanel::duplicateScenario);
    QAction *rename = action(tr("&Rename…"), tr("Rename…"), tr("Rename the selected scenario"),
                             &ScenariosPanel::renameScenario);
    QAction *remove = action(tr("&Delete"), tr("Delete"), tr("Delete the selected scenario"),
                             &ScenariosPanel::removeScenario);
    QAction *compare = action(tr("&Compare Two…"), tr("Compare two…"),
                              tr("Compare two scenarios side by side: brief and results"), [this] { openComparison(); });
    const auto buttonRow = [&](std::initializer_list<QAction *> actions) {
        auto *row = new QHBoxLayout;
        for (QAction *a : actions) {
            auto *b = new QToolButton(scenarioPane);
            b->setDefaultAction(a);
            b->setToolButtonStyle(Qt::ToolButtonTextOnly);
            b->setAccessibleName(a->toolTip());
            row->addWidget(b);
        }
        row->addStretch();
        scenarioLayout->addLayout(row);
    };
    buttonRow({add, duplicate, rename, remove});
    buttonRow({compare});
    connect(m_list, &QListWidget::currentTextChanged, this, [this](const QString &name) {
        if (!name.isEmpty() && name != m_document->scenarioName())
            if (auto error = m_document->selectScenario(name))
                QMessageBox::warning(this, tr("Cannot show scenario"), *error);
    });

    // How complete the brief is, and what is missing (a click goes to the field that fixes it).
    auto *statusPane = new QWidget(split);
    auto *statusLayout = new QVBoxLayout(statusPane);
    statusLayout->setContentsMargins(0, 0, 0, 0);
    m_completeness = pageparts::richLabel(tr("Brief completeness"), statusPane);
    statusLayout->addWidget(m_completeness);
    m_completenessBar = new QProgressBar(statusPane);
    m_completenessBar->setRange(0, 100);
    m_completenessBar->setAccessibleName(tr("Share of the brief given"));
    statusLayout->addWidget(m_completenessBar);
    m_missing = new QListWidget(statusPane);
    m_missing->setAccessibleName(tr("Missing from the brief"));
    m_missing->setWordWrap(true);
    m_missing->setToolTip(tr("Click an item to go to the field that gives it"));
    statusLayout->addWidget(m_missing, 1);
    const auto goToItem = [this](QListWidgetItem *item) {
        if (item && !item->data(Qt::UserRole).toString().isEmpty())
            emit goTo(item->data(Qt::UserRole).toString());
    };
    connect(m_missing, &QListWidget::itemActivated, this, goToItem);
    connect(m_missing, &QListWidget::itemClicked, this, goToItem);
    split->addWidget(scenarioPane);
    split->addWidget(statusPane);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({200, 500});

    connect(document, &Document::scenariosChanged, this, &ScenariosPanel::showScenarios);
    connect(document, &Document::briefChanged, this, &ScenariosPanel::showScenarios);
    connect(document, &Document::briefChanged, this, &ScenariosPanel::showCompleteness);
    showScenarios();
    showCompleteness();
}

QString ScenariosPanel::selected() const
{
    return m_list->currentItem() ? m_list->currentItem()->text() : QString();
}

void ScenariosPanel::showScenarios()
{
    const QSignalBlocker block(m_list);
    m_list->clear();
    m_list->addItems(m_document->scenarioNames());
    const auto current = m_list->findItems(m_document->scenarioName(), Qt::MatchExactly);
    if (!current.isEmpty())
        m_list->setCurrentItem(current.front());
}

// From the results the engine gave with the brief's fit (Results::completeness): nothing is
// assessed twice.
void ScenariosPanel::showCompleteness()
{
    m_missing->clear();
    if (!m_document->brief()) {
        m_completeness->setText(tr("<b>Brief</b>: none open"));
        m_completenessBar->setValue(0);
        return;
    }
    const Completeness &c = m_document->results().completeness;
    const int percent = int(std::lround(c.fraction() * 100));
    m_completenessBar->setValue(percent);
    m_completeness->setText(c.rankable()
                                ? tr("<b>Brief %1% complete</b>: enough to rank the candidates.").arg(percent)
                                : tr("<b>Brief %1% complete</b>: <span style=\"color:#d55e00\">the ranking waits for the "
                                     "items marked ⚠</span>.")
                                      .arg(percent));
    for (const BriefItem *item : c.missing()) {
        auto *row = new QListWidgetItem((item->blocking ? QStringLiteral("⚠ ") : QStringLiteral("○ "))
                                        + QString::fromStdString(item->name));
        row->setToolTip(QString::fromStdString(item->why));
        row->setData(Qt::UserRole, QString::fromStdString(item->pointer));
        m_missing->addItem(row);
    }
    if (m_missing->count() == 0)
        m_missing->addItem(tr("✓ Every item of the brief is given."));
}

ScenarioCompareDialog *ScenariosPanel::openComparison()
{
    if (m_document->scenarioNames().isEmpty())
        return nullptr;
    auto *dialog = new ScenarioCompareDialog(m_document, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void ScenariosPanel::addScenario()
{
    const QString path = openFileName(this, tr("Add scenario from brief"),
                                                      tr("Briefs (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (auto error = m_document->addScenarioFromFile(path))
        QMessageBox::warning(this, tr("Cannot add scenario"), *error);
}

void ScenariosPanel::duplicateScenario()
{
    const QString name = selected();
    if (name.isEmpty())
        return;
    QString copy = tr("%1 (copy)").arg(name);
    for (int i = 2; m_document->scenarioNames().contains(copy); ++i)
        copy = tr("%1 (copy %2)").arg(name).arg(i);
    if (auto error = m_document->duplicateScenario(name, copy))
        QMessageBox::warning(this, tr("Cannot duplicate scenario"), *error);
}

void ScenariosPanel::renameScenario()
{
    const QString name = selected();
    if (name.isEmpty())
        return;
    bool ok = false;
    const QString to = QInputDialog::getText(this, tr("Rename scenario"), tr("New name:"), QLineEdit::Normal, name, &ok);
    if (!ok)
        return;
    if (auto error = m_document->renameScenario(name, to.trimmed()))
        QMessageBox::warning(this, tr("Cannot rename scenario"), *error);
}

void ScenariosPanel::removeScenario()
{
    const QString name = selected();
    if (name.isEmpty())
        return;
    if (auto error = m_document->removeScenario(name))
        QMessageBox::warning(this, tr("Cannot delete scenario"), *error);
}

} // namespace wb
