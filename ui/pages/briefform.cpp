#include "pages/briefform.h"
#include "settings.h"

#include "pages/brieffields.h"

#include "parts/fieldrange.h"
#include "parts/hfimport.h"
#include "parts/words.h"

#include <brief/fields.h>
#include <core/assumptions.h>
#include <core/limits.h>
#include <catalog/catalog.h>
#include <catalog/modelarch.h>
#include <widgets/numberedit.h>

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <optional>
#include <set>

#include <cmath>
#include <limits>
#include <functional>

namespace wb {

using namespace brieffields;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kRealDecimals = 9;

} // namespace


struct BriefForm::Private
{
    std::vector<FieldSpec> specs;
    std::vector<QWidget *> editors;  // parallel to specs
    std::map<Group, QGroupBox *> groups;
    std::map<Group, QFormLayout *> forms;
    QLabel *error = nullptr;
    QLabel *modelInfo = nullptr;
    QLabel *mediaInfo = nullptr;
    QLabel *placeholder = nullptr;
    QPushButton *importHf = nullptr;
    std::optional<Brief> brief;
    bool loading = false;
    // Per number field being typed in: its value (JSON) when the typing began, which an
    // invalid text puts back (typing 150 into a percentage passed through 1 and 15).
    std::map<std::size_t, QString> sessionStart;
    // The number field whose text made the last edit, and those whose valid text the document
    // refused (kept as typed while the brief keeps its value, until typed in again).
    std::optional<std::size_t> typed;
    std::set<std::size_t> refused;
    bool reverting = false;
};

BriefForm::BriefForm(const Catalog &catalog, QWidget *parent) : QWidget(parent), d(std::make_unique<Private>())
{
    d->specs = fieldSpecs(catalog);
    auto *outer = new QVBoxLayout(this);
    d->error = new QLabel(this);
    d->error->setWordWrap(true);
    d->error->setStyleSheet(QStringLiteral("color: #d55e00"));
    d->error->setAccessibleName(tr("Brief validation message"));
    d->error->setMinimumHeight(d->error->fontMetrics().lineSpacing() * 2);
    outer->addWidget(d->error);
    d->placeholder = new QLabel(tr("No brief is open: use File → Open for a project or a brief, or Scenario → Add "
                                   "from Brief."),
                                this);
    d->placeholder->setWordWrap(true);
    outer->addWidget(d->placeholder);
    auto *columns = new QHBoxLayout;
    outer->addLayout(columns);
    QVBoxLayout *column[2] = {new QVBoxLayout, new QVBoxLayout};
    for (QVBoxLayout *c : column)
        columns->addLayout(c, 1);
    for (Group g : {Group::Workload, Group::Context, Group::Media, Group::Training, Group::Traffic, Group::Acceptance,
                    Group::Operations}) {
        auto *box = new QGroupBox(groupTitle(g), this);
        auto *form = new QFormLayout(box);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        d->groups[g] = box;
        d->forms[g] = form;
        const bool right = g == Group::Traffic || g == Group::Operations;
        column[right ? 1 : 0]->addWidget(box);
    }
    for (QVBoxLayout *c : column)
        c->addStretch(1);

    for (std::size_t i = 0; i < d->specs.size(); ++i) {
        const FieldSpec &spec = d->specs[i];
        QWidget *editor = nullptr;
        if (spec.type == FieldSpec::Choice) {
            auto *combo = new QComboBox(this);
            for (const auto &[label, json] : spec.choices)
                combo->addItem(label, json);
            connect(combo, &QComboBox::currentIndexChanged, this, [this, i, combo] {
                const QString json = combo->currentData().toString();
                if (d->loading || json.isEmpty())
                    return;
                const FieldSpec &s = d->specs[i];
                // What a new kind or traffic mode needs besides is the engine's to add (patchBrief).
                emit edit({{s.pointer.toStdString(), json.toStdString()}}, plainLabel(s));
            });
            editor = combo;
        } else {
            // Typed text is kept as typed (a spin box rewrote a field emptied to clear a target);
            // every number that is valid is an edit, as each keystroke of a spin box was.
            // A whole number takes no decimals; any other as many as a bound needs (a rate of 1e-6
            // requests/s, a checkpoint bandwidth of 0.001 GB/s), shown without trailing zeros.
            const int decimals = spec.type == FieldSpec::Integer ? 0 : kRealDecimals;
            auto *number = new NumberEdit(-kInf, kInf, decimals, spec.unit.trimmed(),
                                          spec.unsetText.isEmpty() ? tr("required") : spec.unsetText, this);
            setRangeFrom(number, briefFields().at(spec.pointer.toStdString()), spec.scale);
            number->setTrailingZeros(false);
            number->setUndoByWindow(true);
            number->setRequired(spec.unsetText.isEmpty());
            connect(number, &NumberEdit::valueChanged, this, [this, i, number] { numberTyped(i, number); });
            connect(number, &NumberEdit::finished, this, [this, i] {
                // The typing session is over: its keystrokes were one undo step, the next are another.
                d->refused.erase(i);
                if (d->sessionStart.erase(i))
                    emit editSessionEnded();
            });
            editor = number;
        }
        editor->setToolTip(spec.tip);
        editor->setAccessibleName(plainLabel(spec));
        editor->setAccessibleDescription(spec.tip);
        editor->setObjectName(spec.pointer);
        d->forms[spec.group]->addRow(spec.label, editor);
        d->editors.push_back(editor);
        if (spec.pointer == QLatin1String("/workload/model")) {
            d->modelInfo = new QLabel(this);
            d->modelInfo->setWordWrap(true);
            d->modelInfo->setAccessibleName(tr("Model architecture"));
            d->importHf = new QPushButton(tr("Import Hugging Face config.json…"), this);
            d->importHf->setToolTip(tr("Use a model that is not in the catalog: its architecture is read from "
                                       "the config.json of its Hugging Face repository"));
            connect(d->importHf, &QPushButton::clicked, this, [this] {
                const QString path = openFileName(this, tr("Import a Hugging Face config.json"),
                                                                  tr("Model configuration (*.json)"));
                if (!path.isEmpty())
                    if (auto error = importHfConfig(path))
                        showError(*error);
            });
            d->forms[spec.group]->addRow(QString(), d->modelInfo);
            d->forms[spec.group]->addRow(QString(), d->importHf);
        }
        if (spec.pointer == QLatin1String("/workload/media/model")) {
            d->mediaInfo = new QLabel(this);
            d->mediaInfo->setWordWrap(true);
            d->mediaInfo->setAccessibleName(tr("Pipeline architecture"));
            d->forms[spec.group]->addRow(QString(), d->mediaInfo);
        }
    }
    setBrief(nullptr);
}

BriefForm::~BriefForm()
{
    // The editors outlive d: QWidget's destructor deletes them after this body, and a focused
    // field then loses the focus and says it finished, into a d already freed (found by
    // valgrind when a form closed with the focus in a number).
    for (QWidget *editor : d->editors)
        disconnect(editor, nullptr, this, nullptr);
}

QWidget *BriefForm::field(const QString &pointer) const
{
    for (std::size_t i = 0; i < d->specs.size(); ++i)
        if (d->specs[i].pointer == pointer)
            return d->editors[i];
    return nullptr;
}

QWidget *BriefForm::focusField(const QString &pointer)
{
    // An item may name a group ("/workload/slo", "/workload/acceptance"): its first field.
    for (std::size_t i = 0; i < d->specs.size(); ++i) {
        if (d->specs[i].pointer.startsWith(pointer) && d->editors[i]->isVisibleTo(this)) {
            d->editors[i]->setFocus(Qt::OtherFocusReason);
            return d->editors[i];
        }
    }
    return nullptr;
}

QComboBox *BriefForm::modelBox() const
{
    return static_cast<QComboBox *>(field(QStringLiteral("/workload/model")));
}

NumberEdit *BriefForm::rateBox() const
{
    return static_cast<NumberEdit *>(field(QStringLiteral("/workload/traffic/request_rate_per_s")));
}

void BriefForm::numberTyped(std::size_t i, NumberEdit *number)
{
    if (d->loading)
        return;
    const FieldSpec &s = d->specs[i];
    const QString current = d->brief ? s.value(*d->brief) : kUnset;
    const QString start = d->sessionStart.try_emplace(i, current).first->second;
    d->refused.erase(i);
    d->typed.reset();
    QString json;
    if (const auto shown = number->value()) {
        json = s.type == FieldSpec::Integer ? QString::number(std::llround(*shown / s.scale)) : jsonNumber(*shown / s.scale);
    } else if (number->text().trimmed().isEmpty() && !s.unsetText.isEmpty()) {
        json = kUnset;
    } else {
        // The field keeps what was typed, framed; the brief keeps (or gets back) the value it had
        // when the typing began, not one the keystrokes passed through.
        if (current != start)
            emit edit({{s.pointer.toStdString(), start.toStdString()}}, plainLabel(s));
        showError(keptMessage(i, number->problem().isEmpty() ? tr("a number is required") : number->problem(), start));
        return;
    }
    d->typed = i;
    emit edit({{s.pointer.toStdString(), json.toStdString()}}, plainLabel(s));
}

QString BriefForm::keptMessage(std::size_t i, const QString &problem, const QString &kept) const
{
    const FieldSpec &s = d->specs[i];
    if (kept == kUnset)
        return tr("%1: %2; the brief leaves it unstated.").arg(plainLabel(s), problem);
    // The unit in brackets: "keeps 1 (tokens)" reads right in the singular too.
    const QString value = NumberEdit::written(kept.toDouble() * s.scale, locale());
    return s.unit.trimmed().isEmpty() ? tr("%1: %2; the brief keeps %3.").arg(plainLabel(s), problem, value)
                                      : tr("%1: %2; the brief keeps %3 (%4).").arg(plainLabel(s), problem, value, s.unit.trimmed());
}

void BriefForm::editRefused(const QString &error)
{
    if (!d->typed || !d->sessionStart.count(*d->typed) || d->reverting) {
        showError(error);
        return;
    }
    const std::size_t i = *d->typed;
    const FieldSpec &s = d->specs[i];
    const QString start = d->sessionStart.at(i);
    d->refused.insert(i);
    // Typing 800 where the rules allow 700 passed through 8 and 80, which the document took:
    // the brief gets back what it had when the typing began.
    if (const QString current = d->brief ? s.value(*d->brief) : kUnset; current != start) {
        d->reverting = true;
        emit edit({{s.pointer.toStdString(), start.toStdString()}}, plainLabel(s));
        d->reverting = false;
    }
    showError(keptMessage(i, error, start));
}

void BriefForm::setBrief(const Brief *brief)
{
    d->loading = true;
    d->brief = brief ? std::optional<Brief>(*brief) : std::nullopt;
    std::map<Group, bool> groupShown;
    for (std::size_t i = 0; i < d->specs.size(); ++i) {
        const FieldSpec &spec = d->specs[i];
        const bool shown = brief && spec.applies(*brief);
        d->forms[spec.group]->setRowVisible(d->editors[i], shown);
        groupShown[spec.group] = groupShown[spec.group] || shown;
        if (!brief)
            continue;
        const QString json = spec.value(*brief);
        if (spec.type == FieldSpec::Choice) {
            auto *combo = static_cast<QComboBox *>(d->editors[i]);
            // An inline (imported) model is not in the catalog list: show it, not selectable.
            const int stale = combo->findData(QString());
            if (stale >= 0)
                combo->removeItem(stale);
            int index = combo->findData(json);
            if (index < 0 && spec.pointer == QLatin1String("/workload/model")) {
                combo->insertItem(0, tr("%1 (imported)").arg(QString::fromStdString(brief->workload.model.name)),
                                  QString());
                index = 0;
            }
            combo->setCurrentIndex(index);
        } else {
            // The field shows the brief, unless its text already reads as the brief's number;
            // its range is the parser's for the brief's kind (output tokens: 0 for embeddings).
            auto *number = static_cast<NumberEdit *>(d->editors[i]);
            setRangeFrom(number, briefFields().at(spec.pointer.toStdString(), brief->workload.kind), spec.scale);
            const std::optional<double> shownValue =
                json == kUnset ? std::nullopt : std::optional<double>(json.toDouble() * spec.scale);
            const std::optional<double> typed = number->value();
            const bool same = shownValue
                                  ? typed && std::abs(*typed - *shownValue) <= 1e-9 * std::max(1.0, std::abs(*shownValue))
                                  : number->text().trimmed().isEmpty();
            // A field being typed in whose text is not a number yet keeps it (the message says
            // what the brief holds); any other field shows the brief.
            const bool typingProblem = d->sessionStart.count(i) && (!number->problem().isEmpty() || d->refused.count(i));
            if (!same && !typingProblem)
                number->setValue(shownValue);
        }
    }
    for (auto &[g, box] : d->groups)
        box->setVisible(brief && groupShown[g]);
    // A field's message lasts while a shown field still holds a text with a problem.
    bool problem = false;
    for (std::size_t i = 0; i < d->specs.size(); ++i)
        if (auto *number = qobject_cast<NumberEdit *>(d->editors[i]); number && number->isVisibleTo(this))
            problem = problem || !number->problem().isEmpty() || d->refused.count(i);
    if (!problem)
        showError(QString());
    d->placeholder->setVisible(!brief);
    // The model's line and the import button belong to a language model.
    const bool languageModel = brief && !brief->workload.media;
    d->forms[Group::Workload]->setRowVisible(d->modelInfo, languageModel);
    d->forms[Group::Workload]->setRowVisible(d->importHf, languageModel);
    if (brief && brief->workload.media) {
        const MediaModelSpec &m = brief->workload.media->model;
        const QLocale locale;
        d->mediaInfo->setText(tr("%1 B denoiser parameters, %2 B in text encoders; %3 × %4 pixels%5 and %6 steps by the "
                                 "model card%7")
                                  .arg(locale.toString(m.denoiserParameters / 1e9, 'f', 1),
                                       locale.toString(m.textEncoderParameters / 1e9, 'f', 1))
                                  .arg(m.defaultWidth)
                                  .arg(m.defaultHeight)
                                  .arg(m.video ? tr(", %1 frames").arg(m.defaultFrames) : QString())
                                  .arg(m.defaultSteps)
                                  .arg(m.guidanceDistilled ? tr("; guidance-distilled: one pass a step, whatever "
                                                                "Guidance says")
                                                           : QString()));
    }
    d->forms[Group::Media]->setRowVisible(d->mediaInfo, brief && brief->workload.media);
    if (languageModel) {
        const ModelSpec &m = brief->workload.model;
        const QLocale locale;
        QString info = tr("%1 B parameters, %2 layers, %3 KV heads × %4, context up to %5 tokens")
                           .arg(locale.toString(m.parameters / 1e9, 'f', 1))
                           .arg(m.layers)
                           .arg(m.kvHeads)
                           .arg(m.headDim)
                           .arg(locale.toString(m.maxContext));
        if (m.experts > 0)
            info += tr("; %1 experts, %2 per token").arg(m.experts).arg(m.expertsPerToken);
        d->modelInfo->setText(info);
    }
    d->loading = false;
}

void BriefForm::showError(const QString &message)
{
    // The line stays in the layout, empty or not: a message appearing must not move the fields
    // under the pointer.
    d->error->setText(message);
    // That line is at the top of the form, which may be scrolled out of view of the field being
    // typed in: the message shows beside that field too.
    QWidget *focus = QApplication::focusWidget();
    if (!message.isEmpty() && focus && isAncestorOf(focus))
        QToolTip::showText(focus->mapToGlobal(QPoint(0, focus->height())), message, focus);
}

std::optional<QString> BriefForm::importHfConfig(const QString &path)
{
    HfModel model;
    if (auto error = readHfModel(path, &model))
        return error;
    emit edit({{"/workload/model", model.briefValue.toStdString()}},
              tr("model (imported from %1)").arg(QFileInfo(path).fileName()));
    return std::nullopt;
}

} // namespace wb
