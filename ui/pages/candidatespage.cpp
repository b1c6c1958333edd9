#include "pages/candidatespage.h"

#include <fit/fit.h>

#include "dialogs/apiquote.h"

#include "dialogs/catalogbrowser.h"
#include "dialogs/pricequote.h"
#include "document/document.h"
#include "pages/candidatesmodel.h"
#include "parts/pageparts.h"
#include "parts/words.h"

#include <widgets/choicedelegate.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>

#include <algorithm>

namespace wb {

using namespace pageparts;

CandidatesPage::CandidatesPage(Document *document, QWidget *parent) : Page(document, parent)
{
    QVBoxLayout *layout =
        headedPage(this, tr("Which GPUs are in the running?"),
                   tr("Double-click a cell to change the GPU, its count and its layout (tensor and pipeline parallelism; "
                      "for training also context parallelism, interleaving and the network per GPU) or the serving "
                      "stack; hover a specification for its source and a price for every dated offer."));
    m_model = new CandidatesModel(document->catalog(), this);
    m_table = resultTable(m_model, tr("Candidates"), this);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                             | QAbstractItemView::AnyKeyPressed);
    // Several candidates are picked with Shift or Ctrl and removed together.
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    QVector<ChoiceDelegate::Choice> gpus, stacks;
    for (const GpuSpec &g : document->catalog().gpus())
        gpus.push_back({QString::fromStdString(g.id), QString::fromStdString(g.name)});
    for (const auto &[stack, name] : EnumNames<ServingStack>::items)
        stacks.push_back({QString::fromLatin1(name.data()), words(name)});
    m_table->setItemDelegateForColumn(CandidatesModel::Gpu, new ChoiceDelegate(gpus, m_table));
    m_table->setItemDelegateForColumn(CandidatesModel::Stack, new ChoiceDelegate(stacks, m_table));
    layout->addWidget(m_table, 1);
    m_editNote = new QLabel(this);
    m_editNote->setWordWrap(true);
    m_editNote->setAccessibleName(tr("Edit note"));
    m_editNote->hide();
    layout->addWidget(m_editNote);
    connect(m_model, &CandidatesModel::editNote, this, [this](const QString &message) {
        m_editNote->setText(message);
        m_editNote->show();
    });
    auto *candidateButtons = new QHBoxLayout;
    auto *addButton = new QPushButton(tr("Add from the catalog…"), this);
    addButton->setToolTip(tr("Browse every GPU's specifications with their sources, and add one as a candidate"));
    auto *removeCandidate = new QPushButton(tr("Remove selected"), this);
    candidateButtons->addWidget(addButton);
    candidateButtons->addWidget(removeCandidate);
    candidateButtons->addStretch();
    layout->addLayout(candidateButtons);
    // The brief's own dated prices (vendor quotes), which come before the price book's.
    layout->addWidget(new QLabel(tr("<b>Your price quotes</b>: dated prices of your own; the cost model prefers "
                                    "them to the price book's"),
                                 this));
    m_quotes = new QListWidget(this);
    m_quotes->setAccessibleName(tr("Price quotes in the brief"));
    m_quotes->setMaximumHeight(fontMetrics().height() * 6);
    layout->addWidget(m_quotes);
    auto *quoteButtons = new QHBoxLayout;
    auto *addQuote = new QPushButton(tr("Add a price quote…"), this);
    auto *addApiQuote = new QPushButton(tr("Model-API quote…"), this);
    addApiQuote->setToolTip(tr("Record a model API's dated price (per token, image, second of video or training token, as the brief's work is billed), to compare the GPUs against"));
    auto *removeQuote = new QPushButton(tr("Remove quote"), this);
    quoteButtons->addWidget(addQuote);
    quoteButtons->addWidget(addApiQuote);
    quoteButtons->addWidget(removeQuote);
    quoteButtons->addStretch();
    layout->addLayout(quoteButtons);

    connect(addQuote, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_table->currentIndex();
        const Brief *brief = this->document()->brief();
        // The selected candidate's GPU, else the first candidate's: never a GPU the brief lacks.
        const QString gpu = !brief || brief->candidates.empty() ? QString()
                            : current.isValid() && current.row() < int(brief->candidates.size())
                                ? QString::fromStdString(brief->candidates[std::size_t(current.row())].gpu)
                                : QString::fromStdString(brief->candidates.front().gpu);
        PriceQuoteDialog dialog(this->document()->catalog(), gpu, this);
        if (dialog.exec() == QDialog::Accepted)
            addPriceQuote(dialog.json());
    });
    connect(addApiQuote, &QPushButton::clicked, this, [this] {
        // The quote's unit is the one the brief's work is billed by; the brief's own quote, to
        // revise, rather than an empty form that silently replaces it.
        const Brief *brief = this->document()->brief();
        ApiQuoteDialog dialog(brief ? apiUseOf(brief->workload) : ApiUse::Text, this);
        if (brief && brief->cost.api)
            dialog.form()->setQuote(*brief->cost.api);
        if (dialog.exec() != QDialog::Accepted)
            return;
        if (auto error = this->document()->editBrief(QStringLiteral("/cost/api"), dialog.json(), tr("model-API quote"), false))
            QMessageBox::warning(this, tr("Cannot use the quote"), *error);
    });
    connect(removeQuote, &QPushButton::clicked, this, [this] {
        const int row = m_quotes->currentRow();
        if (row < 0 || !m_quotes->currentItem()->data(Qt::UserRole).isValid())
            return;
        if (m_quotes->currentItem()->data(Qt::UserRole).toInt() < 0) {  // the model-API quote
            if (auto error = this->document()->editBrief(QStringLiteral("/cost/api"), QStringLiteral("null"),
                                                         tr("remove model-API quote"), false))
                QMessageBox::warning(this, tr("Cannot remove the quote"), *error);
            return;
        }
        if (auto error = this->document()->editBrief(QStringLiteral("/cost/prices/%1").arg(row), QStringLiteral("null"),
                                                     tr("remove price quote"), false))
            QMessageBox::warning(this, tr("Cannot remove the quote"), *error);
    });
    connect(m_model, &CandidatesModel::editRequested, this,
            [this](const QString &pointer, const QString &value, const QString &label) {
                m_editNote->hide();  // the note is about the edit before this one
                // A cell commits once per edit: each commit is its own undo step (merging is for
                // fields that commit on every keystroke).
                if (auto error = this->document()->editBrief(pointer, value, label, false))
                    QMessageBox::warning(this, tr("Cannot change the candidate"), *error);
            });
    connect(addButton, &QPushButton::clicked, this, [this] {
        CatalogBrowser browser(this->document()->catalog(), this);
        if (browser.exec() == QDialog::Accepted)
            addCandidate(browser.selectedGpu());
    });
    // The selected rows, removed in one undo step, the last first so that each index still names
    // its row; the row with the focus when none is selected.
    connect(removeCandidate, &QPushButton::clicked, this, [this] {
        std::vector<int> rows;
        for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
            rows.push_back(index.row());
        if (rows.empty() && m_table->currentIndex().isValid())
            rows.push_back(m_table->currentIndex().row());
        if (rows.empty())
            return;
        std::sort(rows.rbegin(), rows.rend());
        std::vector<BriefPatch> patches;
        for (int row : rows)
            patches.push_back({QStringLiteral("/candidates/%1").arg(row).toStdString(), "null"});
        if (auto error = this->document()->editBrief(patches, rows.size() == 1 ? tr("remove candidate")
                                                                               : tr("remove %1 candidates").arg(rows.size()),
                                                     false))
            QMessageBox::warning(this, tr("Cannot remove the candidates"), *error);
    });
    connect(document, &Document::briefChanged, this, &CandidatesPage::showBrief);
    showBrief();
}

void CandidatesPage::addCandidate(const QString &gpu)
{
    if (gpu.isEmpty())
        return;
    // Sized for the brief from the start: the smallest count and layout that holds it, on the
    // GPU's recommended stack.
    Candidate c;
    c.gpu = gpu.toStdString();
    if (const Brief *brief = document()->brief())
        c = defaultCandidate(*brief, c.gpu, document()->catalog());
    if (auto error = document()->editBrief(QStringLiteral("/candidates/-"), QString::fromStdString(candidateJson(c)),
                                           tr("add candidate"), false))
        QMessageBox::warning(this, tr("Cannot add the candidate"), *error);
}

std::optional<QString> CandidatesPage::addPriceQuote(const QString &json)
{
    auto error = document()->editBrief(QStringLiteral("/cost/prices/-"), json, tr("add price quote"), false);
    if (error)
        QMessageBox::warning(this, tr("Cannot add the quote"), *error);
    return error;
}

// The brief's own quotes are its cost.prices, in order (the price book's are not part of the
// brief), so the row of a quote is its index there.
void CandidatesPage::showBrief()
{
    const Brief *brief = document()->brief();
    m_model->setBrief(brief);
    // Training layouts have context parallelism, interleaving and a network; serving has a stack.
    const bool training = brief && (isTraining(brief->workload.kind) || isAdapter(brief->workload.kind));
    for (int column : {CandidatesModel::Context, CandidatesModel::Interleave, CandidatesModel::Network})
        m_table->setColumnHidden(column, !training);
    // A media pipeline runs on no serving stack.
    m_table->setColumnHidden(CandidatesModel::Stack, training || (brief && brief->workload.media));
    m_quotes->clear();
    for (std::size_t i = 0; brief && i < brief->cost.prices.size(); ++i) {
        const GpuPrice &p = brief->cost.prices[i];
        const GpuSpec *gpu = document()->catalog().gpu(p.gpu);
        const QString gpuName = QString::fromStdString(gpu ? gpu->name : p.gpu);
        const QString amount = p.term == PricingTerm::Purchase
                                   ? tr("$%1 per GPU").arg(QLocale().toString(p.usdPerGpu, 'f', 0))
                                   : tr("$%1 per GPU-hour").arg(QLocale().toString(p.usdPerGpuHour, 'f', 2));
        auto *item = new QListWidgetItem(tr("%1 — %2 %3, %4, observed %5")
                                             .arg(gpuName, words(p.term), amount,
                                                  QString::fromStdString(p.provider), QString::fromStdString(p.observed)));
        const std::string terms = commercialTermsWords(p);
        item->setToolTip(tr("Source: %1").arg(QString::fromStdString(p.source))
                         + (terms.empty() ? QString() : tr("\nTerms: %1").arg(QString::fromStdString(terms))));
        item->setData(Qt::UserRole, int(i));
        m_quotes->addItem(item);
    }
    if (brief && brief->cost.api) {
        const ApiPrice &a = *brief->cost.api;
        const auto usd = [](double v, int decimals) { return QLocale().toString(v, 'f', decimals); };
        const QString rate =
            a.unit == ApiUnit::Tokens ? (a.usdPerMillionOutput > 0 ? tr("$%1 per million input and $%2 per million output tokens")
                                                                         .arg(usd(a.usdPerMillionInput, 3), usd(a.usdPerMillionOutput, 3))
                                                                   : tr("$%1 per million input tokens").arg(usd(a.usdPerMillionInput, 3)))
            : a.unit == ApiUnit::Image       ? tr("$%1 per image").arg(usd(a.usdPerImage, 4))
            : a.unit == ApiUnit::Megapixel   ? tr("$%1 per megapixel").arg(usd(a.usdPerMegapixel, 4))
            : a.unit == ApiUnit::VideoSecond ? tr("$%1 per second of video").arg(usd(a.usdPerVideoSecond, 4))
                                             : tr("$%1 per million training tokens").arg(usd(a.usdPerMillionTrainingTokens, 3));
        auto *item = new QListWidgetItem(tr("Model API — %1, %2, observed %3")
                                             .arg(QString::fromStdString(a.provider), rate, QString::fromStdString(a.observed)));
        item->setToolTip(tr("Source: %1").arg(QString::fromStdString(a.source)));
        item->setData(Qt::UserRole, -1);
        m_quotes->addItem(item);
    }
    if (m_quotes->count() == 0)
        m_quotes->addItem(tr("None: every price comes from the dated price book (hover a price for its source)."));
}

} // namespace wb
