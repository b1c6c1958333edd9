// NumberEdit: a number typed as text and kept exactly as typed. A spin box whose lowest value
// shows a "special value" text rewrites the field when the text typed so far is that value: a
// price typed "0.1" became "enter the price" at the "0" and the rest was refused (seen under a
// real X server). Here the text is the person's: the validator refuses only what cannot be a
// number at all, a number out of range stays visible and problem() says what is wrong with it,
// the placeholder text says what is expected while the field is empty, and the unit sits after
// the field. A text with a problem gets a red frame. Numbers are read and written in the
// interface's locale.
#pragma once

#include <QLineEdit>

#include <optional>

class QLabel;

namespace wb {

class NumberEdit : public QWidget
{
    Q_OBJECT

public:
    NumberEdit(double minimum, double maximum, int decimals, const QString &unit, const QString &placeholder,
               QWidget *parent = nullptr);

    // The number typed, or nothing while the field is empty, unfinished or out of range.
    std::optional<double> value() const;
    // What is wrong with the text typed ("must be between 0 and 10,000"); empty when it is a
    // number in range or the field is empty.
    QString problem() const;
    void setValue(std::optional<double> value);
    // The accepted range, from the constructor or set later (a field whose range depends on
    // the document); an exclusive minimum accepts numbers above it only. A bound written through
    // a unit scale (1e6 x 1e-9) is met within rounding.
    void setRange(double minimum, double maximum, bool minExclusive = false);
    QLineEdit *lineEdit() const { return m_edit; }
    void setUnit(const QString &unit);
    QString text() const { return m_edit->text(); }
    // setValue() writes "12.5", not "12.500" (a price keeps its cents: the default is true).
    // decimals is only that padding: a value with more digits shows them all, and a person may
    // type as many as they like.
    void setTrailingZeros(bool shown) { m_trailingZeros = shown; }
    // A number as the field writes it: at most 12 significant digits, never an exponent.
    static QString written(double v, const QLocale &locale);
    // Only whole numbers are in range (the default for a field made with 0 decimals); "1.5"
    // stays as typed and problem() says it is not a whole number.
    void setWholeNumbers(bool whole);
    // Ctrl+Z and Ctrl+Shift+Z go to the window's Undo and Redo instead of the field's own text
    // undo: for a field whose every keystroke is already an undoable edit of a document.
    void setUndoByWindow(bool byWindow) { m_undoByWindow = byWindow; }
    // An empty field is a problem ("a number is required") instead of "not stated".
    void setRequired(bool required);
    // The locale of the person's system, whose reading of a typed number is checked against the
    // interface's: "2.000" is two in English and two thousand in Spanish, so where the two read a
    // text as different numbers the text is refused with both readings, never taken as one of
    // them. QLocale::system() unless set (by a test, or a language setting).
    static void setSystemLocale(const QLocale &locale);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    void valueChanged();
    // Return pressed or the focus left the field: one typing session is over.
    void finished();

private:
    QLineEdit *m_edit = nullptr;
    QLabel *m_unit = nullptr;
    double m_minimum, m_maximum;
    bool m_minExclusive = false;
    int m_decimals;
    bool m_whole;
    bool m_trailingZeros = true;
    bool m_undoByWindow = false;
    bool m_required = false;
    QString m_written;  // the text setValue() wrote: read as that value, however a locale reads it

    void updateFrame();
    bool inRange(double v) const;
    // The number the interface's locale reads, if the text is one and no other locale the person
    // may be typing in reads it as another number; otherwise why not.
    std::optional<double> read(const QString &text, QString *problem) const;
};

} // namespace wb
