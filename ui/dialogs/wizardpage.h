// Private to the New Comparison wizard (newcomparison.cpp, newcomparisonbrief.cpp): a page whose
// Next waits for what it still needs and for its numbers to be ones the engine takes, and says
// which, and the fields its pages are made of.
#pragma once

#include <widgets/numberedit.h>

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QTimer>
#include <QWizard>
#include <QWizardPage>

#include <functional>

namespace wb::wizardparts {

// A page whose Next waits for `complete`, and says what is missing.
class FormPage : public QWizardPage
{
public:
    FormPage(const QString &title, const QString &subtitle, QWidget *parent) : QWizardPage(parent)
    {
        setTitle(title);
        setSubTitle(subtitle);
    }
    std::function<QStringList()> missing;  // what is still needed before Next
    QString engineProblem;                 // what the engine refused when Next was pressed, until an edit
    QWidget *first = nullptr;              // where typing starts when the page opens
    // The numbers on the page's shown rows that cannot be taken, each named by its row's label,
    // and what the engine refused.
    QStringList numberProblems() const
    {
        QStringList out;
        for (NumberEdit *b : findChildren<NumberEdit *>())
            if (b->isVisibleTo(this) && !b->problem().isEmpty())
                out << QStringLiteral("%1: %2").arg(rowName(b), b->problem());
        return out;
    }
    QStringList wrong() const { return numberProblems() + (engineProblem.isEmpty() ? QStringList() : QStringList(engineProblem)); }
    // A field's row label without its colon ("Runs a year").
    QString rowName(QWidget *field) const
    {
        auto *rows = qobject_cast<QFormLayout *>(layout());
        auto *label = rows ? qobject_cast<QLabel *>(rows->labelForField(field)) : nullptr;
        return label ? label->text().remove(u':') : QString();
    }
    bool isComplete() const override
    {
        return (!missing || missing().isEmpty()) && numberProblems().isEmpty();
    }
    void initializePage() override
    {
        // After the page is shown (the wizard leaves the focus on its Next button otherwise),
        // with the field's text selected so that what is typed replaces it.
        if (QWidget *field = first)
            QTimer::singleShot(0, field, [field] {
                field->setFocus(Qt::TabFocusReason);
                if (auto *spin = qobject_cast<QAbstractSpinBox *>(field))
                    spin->selectAll();
                else if (auto *number = qobject_cast<NumberEdit *>(field))
                    number->lineEdit()->selectAll();
            });
    }
    void changed() { emit completeChanged(); }
};

} // namespace wb::wizardparts
