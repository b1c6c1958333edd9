#include "widgets/numberedit.h"

#include <QDoubleValidator>
#include <QKeyEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>

#include <cmath>

namespace wb {

namespace {

// QDoubleValidator "fixes" an unfinished text on Return or focus-out by dropping its group
// separators: "12,5" (twelve and a half, to a European) became 125. The text stays as typed.
class KeepAsTyped : public QDoubleValidator
{
public:
    using QDoubleValidator::QDoubleValidator;
    void fixup(QString &) const override {}
};

} // namespace

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
    auto *validator = new KeepAsTyped(-1e15, 1e15, decimals, m_edit);
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
        updateFrame();
        emit valueChanged();
    });
    connect(m_edit, &QLineEdit::returnPressed, this, &NumberEdit::finished);
}

void NumberEdit::updateFrame()
{
    // A frame, not a colour of its own: the palette's text stays readable in light and dark.
    m_edit->setStyleSheet(problem().isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 2px solid #d55e00; }"));
}

void NumberEdit::setRange(double minimum, double maximum, bool minExclusive)
{
    m_minimum = minimum;
    m_maximum = maximum;
    m_minExclusive = minExclusive;
    updateFrame();
}

bool NumberEdit::inRange(double v) const
{
    // Within 1e-13 of a bound: below the 12 digits a number is written to JSON with.
    const auto slack = [](double bound) { return std::abs(bound) * 1e-13; };
    if (m_minExclusive ? v <= m_minimum : v < m_minimum - slack(m_minimum))
        return false;
    return v <= m_maximum + slack(m_maximum);
}

void NumberEdit::setRequired(bool required)
{
    m_required = required;
    updateFrame();
}

namespace {

// A number in the locale: group separators only between groups of three digits ("12,500"),
// so that "12,5" typed for twelve and a half is not read as 125.
bool wellGrouped(const QString &text, const QLocale &locale)
{
    const QString group = locale.groupSeparator();
    if (group.isEmpty() || !text.contains(group))
        return true;
    const QString integer = text.section(locale.decimalPoint(), 0, 0).remove(locale.negativeSign());
    const QStringList parts = integer.split(group);
    if (parts.front().isEmpty() || parts.front().size() > 3)
        return false;
    for (qsizetype i = 1; i < parts.size(); ++i)
        if (parts[i].size() != 3)
            return false;
    return true;
}

QString plainNumber(double v, const QLocale &locale)
{
    return locale.toString(v, 'f', QLocale::FloatingPointShortest);  // "1,000,000", "0.001": never "1E+06"
}

} // namespace

bool NumberEdit::eventFilter(QObject *watched, QEvent *event)
{
    // A line edit claims Undo and Redo before the window's shortcuts see them; declining the
    // override lets the window's actions have them.
    if (watched == m_edit && event->type() == QEvent::FocusOut)
        emit finished();
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
    const QString text = m_edit->text().trimmed();
    const double v = locale().toDouble(text, &ok);
    if (!ok || !wellGrouped(text, locale()) || !inRange(v))
        return std::nullopt;
    return v;
}

QString NumberEdit::problem() const
{
    const QString text = m_edit->text().trimmed();
    if (text.isEmpty())
        return m_required ? tr("a number is required") : QString();
    bool ok = false;
    const double v = locale().toDouble(text, &ok);
    if (!ok)
        return tr("\"%1\" is not a number").arg(text);
    if (!wellGrouped(text, locale()))
        return tr("\"%1\" is not a number: the decimal point is \"%2\"").arg(text, locale().decimalPoint());
    if (inRange(v))
        return {};
    const QString low = plainNumber(m_minimum, locale()), high = plainNumber(m_maximum, locale());
    if (std::isinf(m_maximum))
        return m_minExclusive ? tr("%1 is not above %2").arg(text, low) : tr("%1 is below %2").arg(text, low);
    if (std::isinf(m_minimum))
        return tr("%1 is above %2").arg(text, high);
    if (m_minExclusive)
        return tr("%1 is outside %2 (not included) to %3").arg(text, low, high);
    return tr("%1 is outside %2 to %3").arg(text, low, high);
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
