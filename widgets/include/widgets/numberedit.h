// NumberEdit: a number typed as text and kept exactly as typed. A spin box whose lowest value
// shows a "special value" text rewrites the field when the text typed so far is that value: a
// price typed "0.1" became "enter the price" at the "0" and the rest was refused (seen under a
// real X server). Here the text is the person's: the validator refuses only what cannot be a
// number at all, a number out of range stays visible and problem() says what is wrong with it,
// the placeholder text says what is expected while the field is empty, and the unit sits after
// the field. Numbers are read and written in the interface's locale.
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
    QLineEdit *lineEdit() const { return m_edit; }
    void setUnit(const QString &unit);
    QString text() const { return m_edit->text(); }

signals:
    void valueChanged();

private:
    QLineEdit *m_edit = nullptr;
    QLabel *m_unit = nullptr;
    double m_minimum, m_maximum;
    int m_decimals;
};

} // namespace wb
