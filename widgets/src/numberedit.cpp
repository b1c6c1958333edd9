#include "widgets/numberedit.h"

#include <QDoubleValidator>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>

namespace wb {

NumberEdit::NumberEdit(double minimum, double maximum, int decimals, const QString &unit, const QString &placeholder,
                       QWidget *parent)
    : QWidget(parent), m_minimum(minimum), m_maximum(maximum), m_decimals(decimals)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_edit = new QLineEdit(this);
    m_edit->setPlaceholderText(placeholder);
    // The validator refuses only what is not a number at all; a number out of range (a minus
    // sign where none is allowed) stays visible, and problem() says what is wrong with it.
    auto *validator = new QDoubleValidator(-1e15, 1e15, decimals, m_edit);
    validator->setNotation(QDoubleValidator::StandardNotation);
    validator->setLocale(locale());
    m_edit->setValidator(validator);
    layout->addWidget(m_edit, 1);
    m_unit = new QLabel(unit, this);
    m_unit->setVisible(!unit.isEmpty());
    layout->addWidget(m_unit);
    setFocusProxy(m_edit);
    connect(m_edit, &QLineEdit::textChanged, this, &NumberEdit::valueChanged);
}

std::optional<double> NumberEdit::value() const
{
    bool ok = false;
    const double v = locale().toDouble(m_edit->text().trimmed(), &ok);
    if (!ok || v < m_minimum || v > m_maximum)
        return std::nullopt;
    return v;
}

QString NumberEdit::problem() const
{
    const QString text = m_edit->text().trimmed();
    if (text.isEmpty())
        return {};
    bool ok = false;
    const double v = locale().toDouble(text, &ok);
    if (!ok)
        return tr("\"%1\" is not a number").arg(text);
    if (v < m_minimum || v > m_maximum)
        return tr("%1 is outside %2 to %3").arg(text, locale().toString(m_minimum), locale().toString(m_maximum));
    return {};
}

void NumberEdit::setUnit(const QString &unit)
{
    m_unit->setText(unit);
    m_unit->setVisible(!unit.isEmpty());
}

void NumberEdit::setValue(std::optional<double> value)
{
    m_edit->setText(value ? locale().toString(*value, 'f', m_decimals) : QString());
}

} // namespace wb
