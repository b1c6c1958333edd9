#include "widgets/numberedit.h"

#include <QKeyEvent>
#include <QValidator>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

// Upper bounds from here on guard against absurd input rather than describe a range.
constexpr double kGuardCeiling = 1e9;

// Refuses only a character no number has (a letter other than an exponent's e): everything a
// number can hold stays as typed, and problem() says what is wrong with the whole. A
// QDoubleValidator refused the keystrokes it judged out of place instead, so that "1e-6" typed
// in a whole-number field became "16", "1.5" became "1." and a price's fifth decimal vanished;
// on Return it also "fixed" "12,5" (twelve and a half, to a European) into 125.
class NumberCharacters : public QValidator
{
public:
    using QValidator::QValidator;
    State validate(QString &input, int &) const override
    {
        const QLocale l = locale();
        const QString allowed = l.decimalPoint() + l.groupSeparator() + l.negativeSign() + l.positiveSign()
                                + l.exponential() + QStringLiteral("eE+- ");
        for (const QChar c : input)
            if (!c.isDigit() && !allowed.contains(c))
                return Invalid;
        return Acceptable;
    }
};

} // namespace

NumberEdit::NumberEdit(double minimum, double maximum, int decimals, const QString &unit, const QString &placeholder,
                       QWidget *parent)
    : QWidget(parent), m_minimum(minimum), m_maximum(maximum), m_decimals(decimals), m_whole(decimals == 0)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_edit = new QLineEdit(this);
    m_edit->setPlaceholderText(placeholder);
    // The validator refuses only what is not a number at all; a number out of range (a minus
    // sign where none is allowed) stays visible, and problem() says what is wrong with it.
    auto *validator = new NumberCharacters(m_edit);
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
    // Within 5e-12 of a bound: a bound written to 12 significant digits, as the messages write it
    // (and JSON), is off by at most that, and typed so it is the bound.
    const auto slack = [](double bound) { return std::abs(bound) * 5e-12; };
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
// so that "12,5" typed for twelve and a half is not read as 125, and never after a leading zero
// ("0,125" is no way to write 125).
bool wellGrouped(const QString &text, const QLocale &locale)
{
    const QString group = locale.groupSeparator();
    if (group.isEmpty() || !text.contains(group))
        return true;
    const QString integer = text.section(locale.decimalPoint(), 0, 0).remove(locale.negativeSign());
    const QStringList parts = integer.split(group);
    if (parts.front().isEmpty() || parts.front().size() > 3 || parts.front().startsWith(locale.zeroDigit()))
        return false;
    for (qsizetype i = 1; i < parts.size(); ++i)
        if (parts[i].size() != 3)
            return false;
    return true;
}

// The digits after the decimal point of a number written by NumberEdit::written().
qsizetype decimalsOf(const QString &text, const QLocale &locale)
{
    const qsizetype point = text.indexOf(locale.decimalPoint());
    return point < 0 ? 0 : text.size() - point - locale.decimalPoint().size();
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

namespace {

std::optional<QLocale> &systemLocaleSet()
{
    static std::optional<QLocale> set;
    return set;
}

// The number a person used to a locale means by the text, if it is one: group separators between
// groups of three, whatever the locale's minimum grouping (Qt refuses Spanish "2.000", which CLDR
// writes "2000", but it is how many people type two thousand).
std::optional<double> readIn(QString text, const QLocale &locale)
{
    if (!wellGrouped(text, locale))
        return std::nullopt;
    if (!locale.groupSeparator().isEmpty())
        text.remove(locale.groupSeparator());
    bool ok = false;
    const double v = locale.toDouble(text, &ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

} // namespace

void NumberEdit::setSystemLocale(const QLocale &locale)
{
    systemLocaleSet() = locale;
}

std::optional<double> NumberEdit::read(const QString &text, QString *problem) const
{
    bool ok = false;
    const double v = locale().toDouble(text, &ok);
    if (!ok) {
        *problem = tr("\"%1\" is not a number").arg(text);
        return std::nullopt;
    }
    if (!wellGrouped(text, locale())) {
        *problem = tr("\"%1\" is not a number: the decimal point is \"%2\"").arg(text, locale().decimalPoint());
        return std::nullopt;
    }
    // The field's own writing of a value ("2.000" for 2% with three decimals) is that value.
    if (!m_written.isEmpty() && text == m_written)
        return v;
    // Read in the system's locale too, and in the other convention for the decimal point (a
    // person used to "2.000" for two thousand types it under an English system as well): a number
    // all read alike (no separator, or the same separators) is the number; one they read
    // differently is neither.
    const QLocale system = systemLocaleSet().value_or(QLocale::system());
    const QLocale convention = locale().decimalPoint() == QLatin1String(".") ? QLocale(QLocale::German, QLocale::Germany)
                                                                              : QLocale(QLocale::English, QLocale::UnitedStates);
    const auto plain = [this](double n) { return written(n, locale()).remove(locale().groupSeparator()); };
    if (const auto other = readIn(text, system); other && *other != v) {
        *problem = tr("\"%1\" is %2 with \"%3\" as the decimal point, as this window reads it, but %4 in "
                      "your system's %5 settings: type %6 or %7, without a group separator")
                       .arg(text, written(v, locale()), locale().decimalPoint(), written(*other, locale()),
                            QLocale::languageToString(system.language()), plain(v), plain(*other));
        return std::nullopt;
    }
    // (Only where that convention's group separator is this window's decimal point: "4.000", not
    // "100,000", which is this window's own grouping.)
    const bool groupedThere = text.contains(convention.groupSeparator()) && !text.contains(convention.decimalPoint());
    if (const auto other = groupedThere ? readIn(text, convention) : std::nullopt; other && *other != v) {
        *problem = tr("\"%1\" is %2 with \"%3\" as the decimal point, as this window reads it, but %4 where "
                      "\"%5\" separates thousands: type %6 or %7, without a group separator")
                       .arg(text, written(v, locale()), locale().decimalPoint(), written(*other, locale()),
                            convention.groupSeparator(), plain(v), plain(*other));
        return std::nullopt;
    }
    return v;
}

std::optional<double> NumberEdit::value() const
{
    QString why;
    const auto v = read(m_edit->text().trimmed(), &why);
    if (!v || !inRange(*v) || (m_whole && *v != std::floor(*v)))
        return std::nullopt;
    return std::min(std::max(*v, m_minimum), m_maximum);  // a bound typed as written is the bound
}

QString NumberEdit::problem() const
{
    const QString text = m_edit->text().trimmed();
    if (text.isEmpty())
        return m_required ? tr("a number is required") : QString();
    QString why;
    const auto read = this->read(text, &why);
    if (!read)
        return why;
    const double v = *read;
    if (m_whole && v != std::floor(v))
        return tr("%1 is not a whole number").arg(text);
    if (inRange(v))
        return {};
    const QString low = written(m_minimum, locale()), high = written(m_maximum, locale());
    // A ceiling no real value nears (a price up to 10^12) is a guard, not a range to quote: the
    // message names the bound the number is on the wrong side of.
    if (std::isinf(m_maximum) || (m_maximum >= kGuardCeiling && v < m_maximum))
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
    // Every digit the value has (a price of 0.00001 is not shown as 0.0000 and saved as 0),
    // padded with zeros to the field's decimals when trailing zeros are shown ("12.50").
    QString text = value ? written(*value, locale()) : QString();
    if (value && m_trailingZeros && m_decimals > 0) {
        const qsizetype has = decimalsOf(text, locale());
        if (has == 0)
            text += locale().decimalPoint();
        if (has < m_decimals)
            text += QString(m_decimals - has, locale().zeroDigit().front());
    }
    m_written = text;
    m_edit->setText(text);
}

// At most 12 significant digits: a bound of 1/60 scaled to minutes reads 0.0166666666667, not
// 0.016666666666666666; "1,000,000", never "1E+06".
QString NumberEdit::written(double v, const QLocale &locale)
{
    const double rounded = std::isfinite(v) ? QString::number(v, 'g', 12).toDouble() : v;
    return locale.toString(rounded, 'f', QLocale::FloatingPointShortest);
}

void NumberEdit::setWholeNumbers(bool whole)
{
    m_whole = whole;
    updateFrame();
}

} // namespace wb
