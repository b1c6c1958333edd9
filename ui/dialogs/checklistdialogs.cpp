#include "dialogs/checklistdialogs.h"
#include "settings.h"

#include "pages/checklistmodel.h"

#include <catalog/prices.h>
#include <core/fileio.h>
#include <core/limits.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QDate>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>

namespace wb {

namespace {

QPushButton *okButtons(QDialog *dialog, QFormLayout *form, QLabel **problem)
{
    *problem = new QLabel(dialog);
    (*problem)->setWordWrap(true);
    (*problem)->setStyleSheet(QStringLiteral("color: #c0392b"));
    (*problem)->setAccessibleName(QCoreApplication::translate("ChecklistDialogs", "What is wrong"));
    form->addRow(*problem);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    form->addRow(buttons);
    return buttons->button(QDialogButtonBox::Ok);
}

// An ISO date field: empty, or YYYY-MM-DD.
QLineEdit *dateField(const std::string &value, QWidget *parent)
{
    auto *edit = new QLineEdit(QString::fromStdString(value), parent);
    edit->setPlaceholderText(QStringLiteral("YYYY-MM-DD"));
    edit->setMaxLength(40);  // room for a pasted date with spaces around it (trimmed)
    return edit;
}

std::optional<QString> dateProblem(const QLineEdit *edit, const QString &field)
{
    const QString text = edit->text().trimmed();
    if (text.isEmpty() || isIsoDate(text.toStdString()))
        return std::nullopt;
    return QCoreApplication::translate("ChecklistDialogs", "%1: \"%2\" is not a date as YYYY-MM-DD.").arg(field, text);
}

QString offerWords(VendorOffer offer)
{
    switch (offer) {
    case VendorOffer::PublicCloud: return QCoreApplication::translate("ChecklistDialogs", "Public cloud");
    case VendorOffer::PrivateCloud: return QCoreApplication::translate("ChecklistDialogs", "Private cloud");
    case VendorOffer::ClusterRental: return QCoreApplication::translate("ChecklistDialogs", "Cluster rental");
    case VendorOffer::Marketplace: return QCoreApplication::translate("ChecklistDialogs", "Marketplace");
    case VendorOffer::ManagedEndpoint: return QCoreApplication::translate("ChecklistDialogs", "Managed endpoint");
    case VendorOffer::Purchase: return QCoreApplication::translate("ChecklistDialogs", "Purchase");
    }
    return {};
}

} // namespace

VendorDialog::VendorDialog(const Vendor &vendor, const QStringList &taken, const QString &scenario,
                           const QStringList &candidates, QWidget *parent)
    : QDialog(parent), m_vendor(vendor), m_taken(taken), m_scenario(scenario)
{
    setWindowTitle(vendor.name.empty() ? tr("Add vendor") : tr("Vendor %1").arg(QString::fromStdString(vendor.name)));
    auto *form = new QFormLayout(this);
    m_name = new QLineEdit(QString::fromStdString(vendor.name), this);
    m_name->setMaxLength(200);
    form->addRow(tr("&Name:"), m_name);
    m_offer = new QComboBox(this);
    for (const auto &[value, name] : EnumNames<VendorOffer>::items)
        m_offer->addItem(offerWords(value), int(value));
    m_offer->setCurrentIndex(m_offer->findData(int(vendor.offer)));
    form->addRow(tr("&Offer:"), m_offer);
    QStringList providers;
    for (const std::string &p : vendor.providers)
        providers << QString::fromStdString(p);
    m_providers = new QLineEdit(providers.join(QStringLiteral("; ")), this);
    m_providers->setToolTip(tr("The price quotes this vendor backs, by the provider name the quote gives, separated by "
                               "semicolons. A recommendation priced from one of them is gated by this vendor's answers."));
    form->addRow(tr("&Price quotes (providers):"), m_providers);
    m_candidates = new QListWidget(this);
    m_candidates->setAccessibleName(tr("Candidates this vendor offers"));
    for (int i = 0; i < candidates.size(); ++i) {
        auto *row = new QListWidgetItem(tr("%1: %2").arg(i + 1).arg(candidates[i]), m_candidates);
        const CandidateRef ref{scenario.toStdString(), i + 1};
        const bool backs = std::find(vendor.candidates.begin(), vendor.candidates.end(), ref) != vendor.candidates.end();
        row->setCheckState(backs ? Qt::Checked : Qt::Unchecked);
    }
    m_candidates->setMaximumHeight(120);
    form->addRow(tr("&Candidates in %1:").arg(scenario), m_candidates);
    m_contact = new QLineEdit(QString::fromStdString(vendor.contact), this);
    form->addRow(tr("C&ontact:"), m_contact);
    m_contacted = dateField(vendor.contacted, this);
    form->addRow(tr("Questions &sent on:"), m_contacted);
    m_notes = new QPlainTextEdit(QString::fromStdString(vendor.notes), this);
    m_notes->setTabChangesFocus(true);
    m_notes->setMaximumHeight(80);
    form->addRow(tr("N&otes:"), m_notes);
    m_ok = okButtons(this, form, &m_problem);
    for (QLineEdit *edit : {m_name, m_contacted})
        connect(edit, &QLineEdit::textChanged, this, &VendorDialog::check);
    check();
}

void VendorDialog::check()
{
    QString problem;
    const std::string name = m_name->text().trimmed().toStdString();
    if (auto why = checkVendorName(name))
        problem = tr("Name: %1.").arg(QString::fromStdString(*why));
    else if (m_taken.contains(QString::fromStdString(name), Qt::CaseInsensitive))
        problem = tr("Name: another vendor is called \"%1\" (names differ by more than case).").arg(QString::fromStdString(name));
    else if (auto date = dateProblem(m_contacted, tr("Questions sent on")))
        problem = *date;
    m_problem->setText(problem);
    m_ok->setEnabled(problem.isEmpty());
}

Vendor VendorDialog::vendor() const
{
    Vendor v = m_vendor;
    v.name = m_name->text().trimmed().toStdString();
    v.offer = VendorOffer(m_offer->currentData().toInt());
    v.providers.clear();
    for (const QString &p : m_providers->text().split(u';', Qt::SkipEmptyParts))
        if (!p.trimmed().isEmpty())
            v.providers.push_back(p.trimmed().toStdString());
    // Candidates of other scenarios stay; this scenario's are as ticked.
    v.candidates.erase(std::remove_if(v.candidates.begin(), v.candidates.end(),
                                      [&](const CandidateRef &c) { return c.scenario == m_scenario.toStdString(); }),
                       v.candidates.end());
    for (int i = 0; i < m_candidates->count(); ++i)
        if (m_candidates->item(i)->checkState() == Qt::Checked)
            v.candidates.push_back({m_scenario.toStdString(), i + 1});
    v.contact = m_contact->text().trimmed().toStdString();
    v.contacted = m_contacted->text().trimmed().toStdString();
    v.notes = m_notes->toPlainText().toStdString();
    return v;
}

AnswerDialog::AnswerDialog(const ChecklistItem &item, const QString &vendor, const std::optional<VendorAnswer> &answer,
                           std::function<Result<Attachment>(const QString &)> attach,
                           std::function<std::optional<std::string>(const std::string &)> bytes, QWidget *parent)
    : QDialog(parent), m_item(item.id), m_file(answer ? answer->file : std::nullopt), m_attachFn(std::move(attach)),
      m_bytesFn(std::move(bytes))
{
    setWindowTitle(tr("%1's answer").arg(vendor));
    auto *form = new QFormLayout(this);
    auto *question = new QLabel(QStringLiteral("<b>%1</b><br><i>%2</i>")
                                    .arg(QString::fromStdString(item.question).toHtmlEscaped(),
                                         tr("Evidence: %1").arg(QString::fromStdString(item.evidence).toHtmlEscaped())),
                                this);
    question->setWordWrap(true);
    question->setMinimumWidth(480);
    form->addRow(question);
    m_answer = new QComboBox(this);
    m_answer->addItem(tr("Not answered"), -1);
    for (const auto &[value, name] : EnumNames<Answer>::items)
        m_answer->addItem(ChecklistModel::answerWords(value), int(value));
    m_answer->setCurrentIndex(answer ? m_answer->findData(int(answer->answer)) : 0);
    form->addRow(tr("&Answer:"), m_answer);
    m_text = new QPlainTextEdit(answer ? QString::fromStdString(answer->text) : QString(), this);
    m_text->setTabChangesFocus(true);
    m_text->setMaximumHeight(90);
    form->addRow(tr("&Vendor's words:"), m_text);
    m_link = new QLineEdit(answer ? QString::fromStdString(answer->link) : QString(), this);
    m_link->setPlaceholderText(tr("https://… or a document reference"));
    form->addRow(tr("Evidence &link:"), m_link);
    auto *fileRow = new QHBoxLayout;
    m_fileLabel = new QLabel(this);
    m_attach = new QPushButton(tr("Attach &file…"), this);
    m_saveFile = new QPushButton(tr("Sa&ve a copy…"), this);
    m_removeFile = new QPushButton(tr("&Remove file"), this);
    fileRow->addWidget(m_fileLabel, 1);
    fileRow->addWidget(m_attach);
    fileRow->addWidget(m_saveFile);
    fileRow->addWidget(m_removeFile);
    form->addRow(tr("Evidence file:"), fileRow);
    m_date = dateField(answer ? answer->answeredOn : QDate::currentDate().toString(Qt::ISODate).toStdString(), this);
    form->addRow(tr("Answered &on:"), m_date);
    m_by = new QLineEdit(answer ? QString::fromStdString(answer->answeredBy) : QString(), this);
    form->addRow(tr("Answered &by:"), m_by);
    m_ok = okButtons(this, form, &m_problem);
    connect(m_attach, &QPushButton::clicked, this, &AnswerDialog::chooseFile);
    connect(m_saveFile, &QPushButton::clicked, this, &AnswerDialog::saveFile);
    connect(m_removeFile, &QPushButton::clicked, this, [this] {
        m_file.reset();
        showFile();
    });
    connect(m_date, &QLineEdit::textChanged, this, &AnswerDialog::check);
    connect(m_link, &QLineEdit::textChanged, this, &AnswerDialog::check);
    showFile();
    check();
}

void AnswerDialog::showFile()
{
    const auto size = [](std::uint64_t bytes) {
        return bytes < 1024 ? tr("%1 bytes").arg(bytes)
                            : bytes < (1u << 20) ? tr("%1 KiB").arg(double(bytes) / 1024, 0, 'f', 1)
                                                 : tr("%1 MiB").arg(double(bytes) / (1 << 20), 0, 'f', 1);
    };
    m_fileLabel->setText(m_file ? tr("%1 (%2)").arg(QString::fromStdString(m_file->name), size(m_file->bytes))
                                : tr("none (at most %1 MiB)").arg(kAttachmentMaxBytes >> 20));
    m_removeFile->setEnabled(m_file.has_value());
    m_saveFile->setEnabled(m_file.has_value());
}

void AnswerDialog::saveFile()
{
    if (!m_file)
        return;
    const auto bytes = m_bytesFn(m_file->sha256);
    if (!bytes) {
        m_problem->setText(tr("The project no longer holds %1.").arg(QString::fromStdString(m_file->name)));
        return;
    }
    const QString path = saveFileName(this, tr("Save a copy of the evidence"), QString::fromStdString(m_file->name));
    if (path.isEmpty())
        return;
    if (Status s = writeFileAtomically(path.toStdString(), *bytes); !s)
        m_problem->setText(QString::fromStdString(s.error().toString()));
}

void AnswerDialog::chooseFile()
{
    const QString path = openFileName(this, tr("Attach evidence"));
    if (path.isEmpty())
        return;
    auto stored = m_attachFn(path);
    if (!stored) {
        m_problem->setText(QString::fromStdString(stored.error().toString()));
        return;
    }
    m_file = *stored;
    showFile();
    check();
}

void AnswerDialog::check()
{
    QString problem;
    if (auto date = dateProblem(m_date, tr("Answered on")))
        problem = *date;
    else if (m_link->text().size() > 2000)
        problem = tr("Evidence link: at most 2,000 characters.");
    m_problem->setText(problem);
    m_ok->setEnabled(problem.isEmpty());
}

std::optional<VendorAnswer> AnswerDialog::answer() const
{
    const int value = m_answer->currentData().toInt();
    if (value < 0)
        return std::nullopt;
    VendorAnswer a;
    a.item = m_item;
    a.answer = Answer(value);
    a.text = m_text->toPlainText().toStdString();
    a.link = m_link->text().trimmed().toStdString();
    a.file = m_file;
    a.answeredOn = m_date->text().trimmed().toStdString();
    a.answeredBy = m_by->text().trimmed().toStdString();
    return a;
}

ChecklistItemDialog::ChecklistItemDialog(const ChecklistTemplate &tmpl, QWidget *parent) : QDialog(parent), m_tmpl(tmpl)
{
    setWindowTitle(tr("Add a question"));
    auto *form = new QFormLayout(this);
    m_section = new QComboBox(this);
    m_section->setEditable(true);
    m_section->setInsertPolicy(QComboBox::NoInsert);
    for (const ChecklistSection &s : tmpl.sections)
        m_section->addItem(QString::fromStdString(s.title), QString::fromStdString(s.id));
    m_section->setToolTip(tr("One of the sections, or type a new section's title"));
    form->addRow(tr("&Section:"), m_section);
    m_id = new QLineEdit(this);
    m_id->setPlaceholderText(tr("optional: a short id such as hw-rails (one is made up when empty)"));
    form->addRow(tr("&Id:"), m_id);
    m_question = new QLineEdit(this);
    form->addRow(tr("&Question:"), m_question);
    m_evidence = new QLineEdit(this);
    form->addRow(tr("&Evidence that answers it:"), m_evidence);
    m_required = new QComboBox(this);
    for (const auto &[value, name] : EnumNames<Commitment>::items)
        m_required->addItem(ChecklistModel::commitmentWords(value), int(value));
    m_required->setCurrentIndex(1);
    form->addRow(tr("&Required from:"), m_required);
    m_ok = okButtons(this, form, &m_problem);
    for (QLineEdit *edit : {m_id, m_question, m_evidence})
        connect(edit, &QLineEdit::textChanged, this, &ChecklistItemDialog::check);
    connect(m_section, &QComboBox::currentTextChanged, this, &ChecklistItemDialog::check);
    check();
}

void ChecklistItemDialog::check()
{
    QString problem;
    const std::string id = itemId();
    if (!limits::isPlainName(id))
        problem = tr("Id: 1 to 64 letters, digits, '-', '_' or '.'.");
    else if (m_tmpl.item(id))
        problem = tr("Id: the checklist already has \"%1\".").arg(QString::fromStdString(id));
    else if (m_question->text().trimmed().isEmpty())
        problem = tr("Question: empty.");
    else if (m_evidence->text().trimmed().isEmpty())
        problem = tr("Evidence: say what answers it.");
    else if (m_section->currentText().trimmed().isEmpty())
        problem = tr("Section: empty.");
    m_problem->setText(problem);
    m_ok->setEnabled(problem.isEmpty());
}

std::string ChecklistItemDialog::itemId() const
{
    const std::string typed = m_id->text().trimmed().toStdString();
    if (!typed.empty())
        return typed;
    for (int n = 1;; ++n)
        if (const std::string id = "team-" + std::to_string(n); !m_tmpl.item(id))
            return id;
}

ChecklistSection ChecklistItemDialog::newSection() const
{
    const QString title = m_section->currentText().trimmed();
    for (const ChecklistSection &s : m_tmpl.sections)
        if (QString::fromStdString(s.title) == title)
            return {};
    // A new section's id from its title: letters and digits, '-' for the rest.
    QString id;
    for (const QChar c : title.toLower())
        id += c.isLetterOrNumber() && c.unicode() < 128 ? c : QChar(u'-');
    id = QStringLiteral("team-") + id.left(50);
    return {id.toStdString(), title.toStdString(), ""};
}

ChecklistItem ChecklistItemDialog::item() const
{
    ChecklistItem item;
    item.id = itemId();
    const ChecklistSection fresh = newSection();
    if (!fresh.id.empty()) {
        item.section = fresh.id;
    } else {
        const QString title = m_section->currentText().trimmed();
        for (const ChecklistSection &s : m_tmpl.sections)
            if (QString::fromStdString(s.title) == title)
                item.section = s.id;
    }
    item.question = m_question->text().trimmed().toStdString();
    item.evidence = m_evidence->text().trimmed().toStdString();
    item.requiredFrom = Commitment(m_required->currentData().toInt());
    return item;
}

} // namespace wb
