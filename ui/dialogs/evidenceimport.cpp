#include "dialogs/evidenceimport.h"

#include <widgets/numberedit.h>

#include <QComboBox>

#include <algorithm>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace wb {

QString runSummary(const MeasuredRun &run)
{
    QString text = QString::fromStdString(std::string(runToolName(run.tool)));
    if (!run.label.empty())
        text += QStringLiteral(" \"%1\"").arg(QString::fromStdString(run.label));
    text += QStringLiteral(": ") + QString::fromStdString(runLoadText(run));
    if (run.inputTokens.mean && run.outputTokens.mean)
        text += QObject::tr(", %L1 in / %L2 out tokens").arg(*run.inputTokens.mean, 0, 'f', 0).arg(*run.outputTokens.mean, 0, 'f', 0);
    if (!run.gpu.empty())
        text += QObject::tr(", on %1").arg(QString::fromStdString(run.gpu));
    if (run.gpus)
        text += QObject::tr(" × %1").arg(*run.gpus);
    return text;
}

EvidenceImportDialog::EvidenceImportDialog(const QString &fileName, const std::vector<MeasuredRun> &runs,
                                           const QStringList &candidates, int candidate, const QString &by, Import import,
                                           QWidget *parent)
    : QDialog(parent), m_import(std::move(import))
{
    setWindowTitle(tr("Import measured runs"));
    auto *layout = new QVBoxLayout(this);
    QStringList lines;
    for (const MeasuredRun &r : runs)
        lines << runSummary(r).toHtmlEscaped();
    auto *summary = new QLabel(tr("<b>%1</b> holds %n run(s):", nullptr, int(runs.size())).arg(fileName.toHtmlEscaped())
                                   + QStringLiteral("<br>") + lines.mid(0, 8).join(QStringLiteral("<br>"))
                                   + (lines.size() > 8 ? tr("<br>… and %1 more").arg(lines.size() - 8) : QString()),
                               this);
    summary->setWordWrap(true);
    summary->setTextFormat(Qt::RichText);
    layout->addWidget(summary);
    auto *note = new QLabel(tr("Say which candidate was measured. The GPU, layout and serving stack are the candidate's "
                               "unless the file says otherwise (then they must agree). Leave a field empty to use what the "
                               "file says; fill it only where the file says nothing (a value that contradicts the file is "
                               "refused)."),
                            this);
    note->setWordWrap(true);
    layout->addWidget(note);
    auto *form = new QFormLayout;
    m_candidate = new QComboBox(this);
    m_candidate->addItems(candidates);
    m_candidate->setCurrentIndex(std::clamp(candidate, 0, int(candidates.size()) - 1));
    form->addRow(tr("&Candidate:"), m_candidate);
    m_gpus = new NumberEdit(1, 100000, 0, tr("GPUs"), tr("the candidate's"), this);
    form->addRow(tr("&GPUs in the run:"), m_gpus);
    m_rate = new NumberEdit(0.001, 1e6, 3, tr("requests/s"), tr("as in the file"), this);
    form->addRow(tr("Request &rate:"), m_rate);
    m_concurrency = new NumberEdit(1, 1000000, 0, tr("in flight"), tr("as in the file"), this);
    form->addRow(tr("Co&ncurrent requests:"), m_concurrency);
    m_input = new NumberEdit(1, 10000000, 0, tr("tokens"), tr("as in the file"), this);
    form->addRow(tr("Mean &input tokens:"), m_input);
    m_output = new NumberEdit(1, 10000000, 0, tr("tokens"), tr("as in the file"), this);
    form->addRow(tr("Mean &output tokens:"), m_output);
    m_by = new QLineEdit(by, this);
    m_by->setMaxLength(200);
    form->addRow(tr("Imported &by:"), m_by);
    layout->addLayout(form);
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    m_problem->setAccessibleName(tr("Problem"));
    m_problem->setStyleSheet(QStringLiteral("color: palette(highlight);"));
    layout->addWidget(m_problem);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("&Import"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &EvidenceImportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (NumberEdit *e : {m_gpus, m_rate, m_concurrency, m_input, m_output})
        connect(e, &NumberEdit::valueChanged, this, &EvidenceImportDialog::check);
    connect(m_by, &QLineEdit::textChanged, this, &EvidenceImportDialog::check);
    // A refusal is about the choice it was made for: another candidate clears it.
    connect(m_candidate, &QComboBox::currentIndexChanged, this, &EvidenceImportDialog::check);
    check();
}

RunMapping EvidenceImportDialog::mapping() const
{
    RunMapping m;
    if (const auto g = m_gpus->value())
        m.gpus = int(*g);
    m.requestRatePerS = m_rate->value();
    if (const auto c = m_concurrency->value())
        m.concurrency = int(*c);
    m.inputTokens = m_input->value();
    m.outputTokens = m_output->value();
    return m;
}

void EvidenceImportDialog::check()
{
    QString problem;
    const QList<QPair<NumberEdit *, QString>> fields = {{m_gpus, tr("GPUs")}, {m_rate, tr("Request rate")},
                                                        {m_concurrency, tr("Concurrent requests")},
                                                        {m_input, tr("Mean input tokens")}, {m_output, tr("Mean output tokens")}};
    for (const auto &[edit, name] : fields)
        if (problem.isEmpty() && !edit->problem().isEmpty())
            problem = tr("%1: %2").arg(name, edit->problem());
    if (problem.isEmpty() && m_rate->value() && m_concurrency->value())
        problem = tr("Give a request rate or a number of concurrent requests, not both.");
    if (problem.isEmpty() && m_candidate->count() == 0)
        problem = tr("The scenario has no candidates to map the runs to.");
    m_problem->setText(problem);
    m_ok->setEnabled(problem.isEmpty());
}

void EvidenceImportDialog::accept()
{
    check();
    if (!m_ok->isEnabled())
        return;
    if (const auto refused = m_import(std::size_t(m_candidate->currentIndex()), mapping(), m_by->text().trimmed())) {
        m_problem->setText(*refused);  // the dialog stays open with what was typed
        return;
    }
    QDialog::accept();
}

} // namespace wb
