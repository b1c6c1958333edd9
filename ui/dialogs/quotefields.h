// What the GPU price quote and the model-API quote share: a labelled form row (its accessible
// name from the label, its tooltip saying why it matters) and the rows every dated quote ends
// with: when it was seen, where, and a note. Private to ui/dialogs.
#pragma once

#include "parts/words.h"

#include <core/types.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QJsonObject>
#include <QDate>
#include <QDateEdit>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace wb::quotefields {

inline void addRow(QFormLayout *form, const QString &label, QWidget *field, const QString &tip)
{
    form->addRow(label, field);
    field->setAccessibleName(QString(label).remove(u':'));
    field->setToolTip(tip);
}

struct Provenance
{
    QComboBox *region = nullptr;  // where it runs; data "" when not stated
    QDateEdit *observed = nullptr;
    QLineEdit *source = nullptr;
    QLineEdit *note = nullptr;
};

inline Provenance addProvenance(QFormLayout *form, QWidget *parent, const QString &sourceHint, const QString &noteHint)
{
    const auto tr = [](const char *text) { return QCoreApplication::translate("QuoteFields", text); };
    Provenance p;
    p.observed = new QDateEdit(QDate::currentDate(), parent);
    p.observed->setCalendarPopup(true);
    p.observed->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    p.observed->setMaximumDate(QDate::currentDate());
    p.source = new QLineEdit(parent);
    p.source->setPlaceholderText(sourceHint);
    p.note = new QLineEdit(parent);
    p.note->setPlaceholderText(noteHint);
    p.region = new QComboBox(parent);
    p.region->addItem(tr("not stated"), QString());
    for (const auto &[region, name] : EnumNames<DataRegion>::items)
        p.region->addItem(words(name), QString::fromLatin1(name.data(), qsizetype(name.size())));
    addRow(form, tr("Runs in:"), p.region,
           tr("Where its GPUs or servers are: a brief that keeps its data in one region leaves out quotes from elsewhere"));
    addRow(form, tr("Observed:"), p.observed, tr("When the price was seen: prices age, and old ones are flagged"));
    addRow(form, tr("Source:"), p.source, tr("Where it was seen, so that finance can check it"));
    addRow(form, tr("Note:"), p.note, tr("Anything a reader should know about this price"));
    return p;
}

// The region row's value in a quote's JSON, when one is chosen.
inline void insertRegion(QJsonObject &quote, const QComboBox *region)
{
    if (!region->currentData().toString().isEmpty())
        quote.insert(QStringLiteral("region"), region->currentData().toString());
}

// The line under a quote's fields that says why its button is held: a tooltip on a disabled
// button is read by nobody who does not hover it.
inline QLabel *messageLine(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: #d55e00"));
    label->setAccessibleName(QCoreApplication::translate("QuoteFields", "Why the quote cannot be used yet"));
    label->setMinimumHeight(label->fontMetrics().lineSpacing() * 2);
    return label;
}

// The button is held while anything is missing or wrong, and the line says what.
inline void holdUntil(QPushButton *ok, QLabel *message, const QStringList &missing, const QStringList &wrong)
{
    const auto tr = [](const char *text) { return QCoreApplication::translate("QuoteFields", text); };
    QStringList why;
    if (!missing.isEmpty())
        why << tr("Still missing: %1.").arg(missing.join(QStringLiteral(", ")));
    for (const QString &w : wrong)
        why << w + u'.';
    ok->setEnabled(why.isEmpty());
    ok->setToolTip(why.join(u' '));
    message->setText(why.join(u' '));
}

} // namespace wb::quotefields
