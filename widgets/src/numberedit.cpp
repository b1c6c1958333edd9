#include "widgets/numberedit.h"

#include <QDoubleValidator>
#include <QKeyEvent>
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
    m_edit->installEventFilter(this);
    connect(m_edit, &QLineEdit::textChanged, this, [this] {
        // A frame, not a colour of its own: the palette's text stays readable in light and dark.
        m_edit->setStyleSheet(problem().isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 2px solid #d55e00; }"));
        emit valueChanged();
    });
}

bool NumberEdit::eventFilter(QObject *watched, QEvent *event)
{
    // A line edit claims Undo and Redo before the window's shortcuts see them; declining the
    // override lets the window's actions have them.
    if (m_undoByWindow && watched == m_edit && event->type() == QEvent::ShortcutOverride) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo)) {
            event->ignore();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
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
    QString text = value ? locale().toString(*value, 'f', m_decimals) : QString();
    if (!m_trailingZeros && m_decimals > 0 && value) {
        while (text.endsWith(u'0'))
            text.chop(1);
        if (text.endsWith(locale().decimalPoint()))
            text.chop(locale().decimalPoint().size());
    }
    m_edit->setText(text);
}

} // namespace wb
