#include "pages/checklistpage.h"
#include "settings.h"

#include "dialogs/checklistdialogs.h"
#include "document/document.h"
#include "pages/checklistmodel.h"
#include "parts/pageparts.h"

#include <brief/brief.h>
#include <core/fileio.h>
#include <procurement/gate.h>

#include <QComboBox>
#include <QDate>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>

#include <utility>

namespace wb {

using namespace pageparts;

ChecklistPage::ChecklistPage(Document *document, QWidget *parent) : Page(document, parent)
{
    QVBoxLayout *layout = headedPage(
        this, tr("Can each vendor back the commitment?"),
        tr("The method's procurement questions for every vendor. Y, N, P, U or A answers the selected cell (yes, no, "
           "partial, unknown, not applicable) and moves down; Enter opens the answer's text, evidence and date. The "
           "larger the commitment, the more it requires: from a purchase on, every answer needs evidence."));
    auto *bar = new QHBoxLayout;
    auto *commitmentLabel = new QLabel(tr("&Commitment:"), this);
    m_commitment = new QComboBox(this);
    for (const auto &item : EnumNames<Commitment>::items)
        m_commitment->addItem(ChecklistModel::commitmentWords(item.first), int(item.first));
    m_commitment->setCurrentIndex(1);
    m_commitment->setToolTip(tr("Which items are required, and tinted when missing: those required at this commitment"));
    commitmentLabel->setBuddy(m_commitment);
    auto *filterLabel = new QLabel(tr("&Show:"), this);
    m_filter = new QComboBox(this);
    m_filter->addItem(tr("All questions"), int(ChecklistModel::Filter::All));
    m_filter->addItem(tr("Unanswered by a vendor"), int(ChecklistModel::Filter::Unanswered));
    m_filter->addItem(tr("Required at this commitment"), int(ChecklistModel::Filter::Required));
    m_filter->addItem(tr("Answered no"), int(ChecklistModel::Filter::AnsweredNo));
    filterLabel->setBuddy(m_filter);
    bar->addWidget(commitmentLabel);
    bar->addWidget(m_commitment);
    bar->addSpacing(12);
    bar->addWidget(filterLabel);
    bar->addWidget(m_filter);
    bar->addStretch(1);
    layout->addLayout(bar);
    // The actions on a second row, so that the page fits a 1280-pixel-wide window.
    auto *actions = new QHBoxLayout;
    const auto button = [&](const QString &text, void (ChecklistPage::*slot)(), const QString &tip) {
        auto *b = new QPushButton(text, this);
        b->setToolTip(tip);
        connect(b, &QPushButton::clicked, this, slot);
        actions->addWidget(b);
        return b;
    };
    button(tr("Add &vendor…"), &ChecklistPage::addVendor, tr("A vendor to ask the questions"));
    m_editVendor = button(tr("&Edit vendor…"), &ChecklistPage::editVendor, tr("The selected column's vendor"));
    m_removeVendor = button(tr("Remo&ve vendor"), &ChecklistPage::removeVendor, tr("The selected column's vendor and its answers"));
    button(tr("Add &question…"), &ChecklistPage::addQuestion, tr("A question of the team's own, in a section or a new one"));
    button(tr("&Import answers…"), &ChecklistPage::importAnswers, tr("A vendor's answers file (JSON)"));
    m_exportVendor = button(tr("E&xport vendor…"), &ChecklistPage::exportVendor,
                            tr("The selected vendor's answers file, every question listed, for the vendor to fill"));
    button(tr("Export C&SV…"), &ChecklistPage::exportCsv, tr("The whole checklist for a spreadsheet"));
    actions->addStretch(1);
    layout->addLayout(actions);
    m_gate = richLabel(tr("Evidence for the recommendation"), this);
    layout->addWidget(m_gate);
    m_empty = new QLabel(tr("No vendor yet: add one (Add vendor…) or import a vendor's answers file. The questions "
                            "below are the method's; each vendor becomes a column."),
                         this);
    m_empty->setWordWrap(true);
    layout->addWidget(m_empty);

    m_model = new ChecklistModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setAccessibleName(tr("Vendor checklist"));
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(ChecklistModel::Question, QHeaderView::Stretch);
    m_table->horizontalHeader()->setMinimumSectionSize(110);
    m_table->installEventFilter(this);
    m_table->viewport()->installEventFilter(this);  // its width decides the columns'
    layout->addWidget(m_table, 1);
    auto *legend = new QLabel(tr("<span style=\"background-color: rgba(220,50,47,0.35)\">&nbsp;— missing&nbsp;</span> "
                                 "required at this commitment and not answered (or unknown) &nbsp; "
                                 "<span style=\"background-color: rgba(230,160,0,0.35)\">&nbsp;Yes&nbsp;</span> "
                                 "answered without the evidence a purchase needs (a link or a file) &nbsp; "
                                 "· link / · file: the evidence given"),
                              this);
    legend->setWordWrap(true);
    layout->addWidget(legend);

    connect(m_table, &QTableView::doubleClicked, this, [this] { openAnswer(); });
    connect(m_commitment, &QComboBox::activated, this, [this] { m_commitmentChosen = true; });
    connect(m_commitment, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setCommitment(Commitment(m_commitment->currentData().toInt())); });
    connect(m_filter, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setFilter(ChecklistModel::Filter(m_filter->currentData().toInt())); });
    connect(document, &Document::checklistChanged, this, &ChecklistPage::showChecklist);
    connect(document, &Document::resultsChanged, this, &ChecklistPage::showGate);
    showChecklist();
    showGate();
}

void ChecklistPage::showChecklist()
{
    // The cell being worked on: the one an answer asked for (the next question), else the current.
    const QModelIndex current = m_table->currentIndex();
    std::string item = std::exchange(m_keepItem, std::string());
    std::string vendor = std::exchange(m_keepVendor, std::string());
    if (item.empty())
        item = m_model->itemAt(current.row());
    const int oldVendor = m_model->vendorAt(current.column());
    if (vendor.empty() && oldVendor >= 0)
        vendor = m_model->checklist().vendors[std::size_t(oldVendor)].name;
    const int oldColumn = current.column();

    m_model->setChecklist(document()->checklistTemplate(), document()->checklist());
    const ProjectChecklist &checklist = m_model->checklist();
    const int vendors = int(checklist.vendors.size());
    m_empty->setVisible(vendors == 0);
    for (QPushButton *b : {m_editVendor, m_removeVendor, m_exportVendor})
        b->setEnabled(vendors > 0);
    fitColumns();

    // The same vendor's column (found by name: columns move when vendors come and go), and the
    // same question, or the next one the filter still shows.
    int column = oldColumn;
    for (int v = 0; v < vendors; ++v)
        if (checklist.vendors[std::size_t(v)].name == vendor)
            column = ChecklistModel::FirstVendor + v;
    int row = m_model->rowOfItem(item);
    const std::vector<ChecklistItem> &items = m_model->checklistTemplate().items;
    for (auto it = std::find_if(items.begin(), items.end(), [&](const ChecklistItem &i) { return i.id == item; });
         row < 0 && it != items.end(); ++it)
        row = m_model->rowOfItem(it->id);
    if (row < 0)
        row = m_model->rowCount() > 1 ? 1 : -1;
    if (row >= 0 && vendors > 0)
        m_table->setCurrentIndex(m_model->index(row, std::clamp(column, int(ChecklistModel::FirstVendor), m_model->columnCount() - 1)));
}

void ChecklistPage::fitColumns()
{
    // Every vendor in view beside the questions up to five vendors at 1280 pixels: the question
    // column keeps 300 px and stretches; vendors share the rest, 130 to 260 px each (beyond that
    // the table scrolls sideways).
    const int vendors = m_model->columnCount() - ChecklistModel::FirstVendor;
    m_table->resizeColumnToContents(ChecklistModel::RequiredFrom);
    if (vendors <= 0)
        return;
    const int room = m_table->viewport()->width() - 300 - m_table->columnWidth(ChecklistModel::RequiredFrom);
    const int each = std::clamp(room / vendors, 130, 260);
    for (int c = ChecklistModel::FirstVendor; c < ChecklistModel::FirstVendor + vendors; ++c)
        m_table->setColumnWidth(c, each);
}

void ChecklistPage::showGate()
{
    const Results &results = document()->results();
    const std::optional<Recommendation> &rec = results.cost.recommendation;
    if (!m_commitmentChosen && rec) {
        const auto c = rec->evidence ? std::optional<Commitment>(rec->evidence->commitment) : commitmentOf(*rec, nullptr);
        if (c)
            m_commitment->setCurrentIndex(m_commitment->findData(int(*c)));
    }
    if (!rec) {
        m_gate->setText(QString());
        return;
    }
    if (!rec->evidence) {
        const auto c = commitmentOf(*rec, nullptr);
        m_gate->setText(c ? tr("<b>The recommended commitment is backed:</b> its vendor has answered every question a %1 "
                               "commitment requires.")
                                .arg(QString::fromLatin1(enumName(*c).data(), int(enumName(*c).size())))
                          : tr("The recommendation (renting, or the model API) makes no commitment the checklist "
                               "gates. Choose a commitment above to see what each vendor still owes for it."));
        return;
    }
    const EvidenceGate &g = *rec->evidence;
    QStringList items;
    for (const std::string &m : g.missing)
        items << QString::fromStdString(m).toHtmlEscaped();
    for (const std::string &u : g.unbacked)
        items << tr("%1 (answered, no evidence)").arg(QString::fromStdString(u).toHtmlEscaped());
    const QString shown = items.size() > 4 ? items.mid(0, 4).join(QStringLiteral("; ")) + tr("; and %1 more").arg(items.size() - 4)
                                           : items.join(QStringLiteral("; "));
    m_gate->setText(tr("<b>The recommendation stands subject to evidence</b> (%1, %2): %3")
                        .arg(QString::fromLatin1(enumName(g.commitment).data(), int(enumName(g.commitment).size())),
                             g.vendor.empty() ? tr("no vendor backs it") : QString::fromStdString(g.vendor).toHtmlEscaped(),
                             shown));
}

int ChecklistPage::currentVendor() const
{
    const int v = m_model->vendorAt(m_table->currentIndex().column());
    if (v >= 0)
        return v;
    return m_model->checklist().vendors.size() == 1 ? 0 : -1;
}

bool ChecklistPage::edit(const ProjectChecklist &after, const QString &label)
{
    if (auto error = document()->editChecklist(after, label)) {
        QMessageBox::warning(this, tr("Checklist"), *error);
        return false;
    }
    return true;
}

void ChecklistPage::moveDown()
{
    const QModelIndex current = m_table->currentIndex();
    for (int row = current.row() + 1; row < m_model->rowCount(); ++row)
        if (!m_model->itemAt(row).empty()) {
            m_table->setCurrentIndex(m_model->index(row, current.column()));
            return;
        }
}

void ChecklistPage::answerCurrent(std::optional<Answer> answer)
{
    const QModelIndex current = m_table->currentIndex();
    const std::string item = m_model->itemAt(current.row());
    const int v = m_model->vendorAt(current.column());
    if (item.empty() || v < 0)
        return;
    ProjectChecklist after = m_model->checklist();
    Vendor &vendor = after.vendors[std::size_t(v)];
    std::optional<VendorAnswer> value;
    if (answer) {
        const VendorAnswer *old = vendor.answer(item);
        if (old && old->answer == *answer) {
            moveDown();  // already so: nothing to change
            return;
        }
        // A different answer is a new answer: the old one's words, evidence and author belonged
        // to it (Enter adds the new one's; undo brings the old back).
        value = VendorAnswer{};
        value->answer = *answer;
        value->answeredOn = QDate::currentDate().toString(Qt::ISODate).toStdString();
    }
    vendor.setAnswer(m_model->checklistTemplate(), item, value);
    const QString question = shortQuestion(item);
    const QString label = answer ? tr("Answer \"%1\" for %2: %3")
                                       .arg(question, QString::fromStdString(vendor.name), ChecklistModel::answerWords(*answer))
                                 : tr("Clear \"%1\" for %2").arg(question, QString::fromStdString(vendor.name));
    if (answer) {
        // After the change, the next question down in this vendor's column (the answered one may
        // leave the view under a filter).
        for (int row = current.row() + 1; row < m_model->rowCount() && m_keepItem.empty(); ++row)
            m_keepItem = m_model->itemAt(row);
        if (m_keepItem.empty())
            m_keepItem = item;
        m_keepVendor = vendor.name;
    }
    if (!edit(after, label)) {
        m_keepItem.clear();
        m_keepVendor.clear();
    }
}

QString ChecklistPage::shortQuestion(const std::string &item) const
{
    const ChecklistItem *q = m_model->checklistTemplate().item(item);
    const QString text = q ? QString::fromStdString(q->question) : QString::fromStdString(item);
    return text.size() > 48 ? text.left(47) + QStringLiteral("…") : text;
}

void ChecklistPage::openAnswer()
{
    const QModelIndex current = m_table->currentIndex();
    const std::string item = m_model->itemAt(current.row());
    const int v = m_model->vendorAt(current.column());
    if (item.empty() || v < 0)
        return;
    const ChecklistItem *question = m_model->checklistTemplate().item(item);
    ProjectChecklist after = m_model->checklist();
    Vendor &vendor = after.vendors[std::size_t(v)];
    const VendorAnswer *existing = vendor.answer(item);
    AnswerDialog dialog(*question, QString::fromStdString(vendor.name),
                        existing ? std::optional<VendorAnswer>(*existing) : std::nullopt,
                        [this](const QString &path) { return document()->attachEvidence(path); },
                        [this](const std::string &sha256) { return document()->evidenceBytes(sha256); }, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    vendor.setAnswer(m_model->checklistTemplate(), item, dialog.answer());
    edit(after, tr("Answer \"%1\" for %2").arg(shortQuestion(item), QString::fromStdString(vendor.name)));
}

bool ChecklistPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    if (watched == m_table && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
            return false;
        switch (key->key()) {
        case Qt::Key_Y: answerCurrent(Answer::Yes); return true;
        case Qt::Key_N: answerCurrent(Answer::No); return true;
        case Qt::Key_P: answerCurrent(Answer::Partial); return true;
        case Qt::Key_U: answerCurrent(Answer::Unknown); return true;
        case Qt::Key_A: answerCurrent(Answer::NotApplicable); return true;
        case Qt::Key_Delete:
        case Qt::Key_Backspace: answerCurrent(std::nullopt); return true;
        case Qt::Key_Return:
        case Qt::Key_Enter:
        case Qt::Key_F2: openAnswer(); return true;
        default: break;
        }
    }
    return Page::eventFilter(watched, event);
}

void ChecklistPage::addVendor()
{
    const ProjectChecklist current = m_model->checklist();
    QStringList taken, candidates;
    for (const Vendor &v : current.vendors)
        taken << QString::fromStdString(v.name);
    if (const Brief *brief = document()->brief())
        for (const Candidate &c : brief->candidates)
            candidates << QString::fromStdString(candidateLabel(c));
    VendorDialog dialog(Vendor{}, taken, document()->scenarioName(), candidates, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    ProjectChecklist after = current;
    after.vendors.push_back(dialog.vendor());
    if (edit(after, tr("Add vendor %1").arg(QString::fromStdString(after.vendors.back().name))))
        m_table->setCurrentIndex(m_model->index(1, ChecklistModel::FirstVendor + int(after.vendors.size()) - 1));
}

void ChecklistPage::editVendor()
{
    const int v = currentVendor();
    if (v < 0)
        return;
    ProjectChecklist after = m_model->checklist();
    QStringList taken, candidates;
    for (std::size_t i = 0; i < after.vendors.size(); ++i)
        if (int(i) != v)
            taken << QString::fromStdString(after.vendors[i].name);
    if (const Brief *brief = document()->brief())
        for (const Candidate &c : brief->candidates)
            candidates << QString::fromStdString(candidateLabel(c));
    VendorDialog dialog(after.vendors[std::size_t(v)], taken, document()->scenarioName(), candidates, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    after.vendors[std::size_t(v)] = dialog.vendor();
    edit(after, tr("Edit vendor %1").arg(QString::fromStdString(after.vendors[std::size_t(v)].name)));
}

void ChecklistPage::removeVendor()
{
    const int v = currentVendor();
    if (v < 0)
        return;
    ProjectChecklist after = m_model->checklist();
    const QString name = QString::fromStdString(after.vendors[std::size_t(v)].name);
    const auto answered = after.vendors[std::size_t(v)].answers.size();
    if (QMessageBox::question(this, tr("Remove vendor"),
                              tr("Remove %1 and its %2 answers? (Edit > Undo brings them back.)").arg(name).arg(answered))
        != QMessageBox::Yes)
        return;
    after.vendors.erase(after.vendors.begin() + v);
    edit(after, tr("Remove vendor %1").arg(name));  // undo brings it back with its answers
}

void ChecklistPage::addQuestion()
{
    const ChecklistTemplate tmpl = m_model->checklistTemplate();
    ChecklistItemDialog dialog(tmpl, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    ProjectChecklist after = m_model->checklist();
    const ChecklistSection section = dialog.newSection();
    if (!section.id.empty() && !tmpl.section(section.id))
        after.extraSections.push_back(section);
    after.extraItems.push_back(dialog.item());
    edit(after, tr("Add question %1").arg(QString::fromStdString(after.extraItems.back().id)));
}

void ChecklistPage::importAnswers()
{
    const QString path = openFileName(this, tr("Import a vendor's answers"),
                                                      tr("Checklist answers (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    const ProjectChecklist before = document()->checklist();
    if (auto error = document()->importChecklistAnswers(path)) {
        QMessageBox::warning(this, tr("Import answers"), tr("Nothing was imported.\n\n%1").arg(*error));
        return;
    }
    // What changed, vendor by vendor, so that nothing changes unseen (one undo step reverts it).
    const ProjectChecklist after = document()->checklist();
    QStringList lines;
    for (const Vendor &v : after.vendors) {
        const Vendor *old = before.vendor(v.name);
        int added = 0, changed = 0;
        for (const VendorAnswer &a : v.answers) {
            const VendorAnswer *was = old ? old->answer(a.item) : nullptr;
            if (!was)
                ++added;
            else if (was->answer != a.answer || was->text != a.text || was->link != a.link ||
                     (was->file ? was->file->sha256 : std::string()) != (a.file ? a.file->sha256 : std::string()))
                ++changed;
        }
        if (!old)
            lines << tr("%1: new vendor, %2 answers").arg(QString::fromStdString(v.name)).arg(added);
        else if (added || changed)
            lines << tr("%1: %2 new answers, %3 changed").arg(QString::fromStdString(v.name)).arg(added).arg(changed);
    }
    QMessageBox::information(this, tr("Import answers"),
                             lines.isEmpty() ? tr("The file changed no answer.")
                                             : tr("Imported:\n%1\n\nEdit > Undo reverts the import.").arg(lines.join(u'\n')));
}

void ChecklistPage::exportVendor()
{
    const int v = currentVendor();
    if (v < 0)
        return;
    const std::string name = m_model->checklist().vendors[std::size_t(v)].name;
    const QString path = saveFileName(this, tr("Export %1's answers").arg(QString::fromStdString(name)),
                                                      QString::fromStdString(name) + QStringLiteral(".answers.json"),
                                                      tr("Checklist answers (*.json)"));
    if (path.isEmpty())
        return;
    if (Status s = writeFileAtomically(path.toStdString(), answersToJson(m_model->checklistTemplate(), m_model->checklist(), name)); !s)
        QMessageBox::warning(this, tr("Export answers"), QString::fromStdString(s.error().toString()));
}

void ChecklistPage::exportCsv()
{
    const QString path = saveFileName(this, tr("Export the checklist"), tr("checklist.csv"),
                                                      tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    if (Status s = writeFileAtomically(path.toStdString(), checklistToCsv(m_model->checklistTemplate(), m_model->checklist())); !s)
        QMessageBox::warning(this, tr("Export the checklist"), QString::fromStdString(s.error().toString()));
}

} // namespace wb
