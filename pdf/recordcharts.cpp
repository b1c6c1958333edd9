#include "recordcharts.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

// Okabe & Ito's colour-blind-safe palette (blue, orange, bluish green, vermillion, reddish
// purple, sky blue, yellow), then greys.
const QColor kPalette[] = {QColor(0, 114, 178),  QColor(230, 159, 0),   QColor(0, 158, 115),   QColor(213, 94, 0),
                           QColor(204, 121, 167), QColor(86, 180, 233), QColor(240, 228, 66), QColor(90, 90, 90),
                           QColor(160, 160, 160)};

// Round tick steps (1, 2, 5 times a power of ten) giving about `count` ticks over [lo, hi].
std::vector<double> linearTicks(double lo, double hi, int count)
{
    std::vector<double> ticks;
    if (!(hi > lo))
        return ticks;
    const double raw = (hi - lo) / count;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * magnitude) {
            step = m * magnitude;
            break;
        }
    for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
        ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
    return ticks;
}

std::vector<double> logTicks(double lo, double hi)
{
    std::vector<double> ticks;
    for (double t = std::pow(10.0, std::floor(std::log10(lo))); t <= hi * 1.000001; t *= 10)
        if (t >= lo * 0.999999)
            ticks.push_back(t);
    return ticks;
}

QString tickText(double v)
{
    const double a = std::abs(v);
    if (a >= 1e9)
        return QString::number(v / 1e9, 'g', 3) + QLatin1String("G");
    if (a >= 1e6)
        return QString::number(v / 1e6, 'g', 3) + QLatin1String("M");
    if (a >= 1e4)
        return QString::number(v / 1e3, 'g', 3) + QLatin1String("k");
    return QString::number(v, 'g', 4);
}

struct Axis
{
    double lo = 0, hi = 1;
    bool log = false;
    double map(double v, double from, double to) const
    {
        const double f = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
        return from + f * (to - from);
    }
    std::vector<double> ticks(int count) const { return log ? logTicks(lo, hi) : linearTicks(lo, hi, count); }
};

Axis axisOver(double lo, double hi, bool log)
{
    Axis a;
    a.log = log;
    if (log) {
        lo = std::max(lo, 1e-12);
        a.lo = std::pow(10.0, std::floor(std::log10(lo)));
        a.hi = std::pow(10.0, std::ceil(std::log10(std::max(hi, lo * 10))));
    } else {
        a.lo = std::min(0.0, lo);
        a.hi = hi > a.lo ? hi * 1.05 : a.lo + 1;
        const std::vector<double> t = linearTicks(a.lo, a.hi, 5);
        if (!t.empty() && t.back() < a.hi)
            a.hi = t.back() + (t.size() > 1 ? t[1] - t[0] : 1);
    }
    return a;
}

void drawBars(QPainter &p, const ChartSpec &c, const QRectF &area, const QFontMetricsF &fm)
{
    double hi = 0;
    for (const ChartBar &b : c.bars) {
        double sum = 0;
        for (double v : b.stack)
            sum += std::max(0.0, v);
        hi = std::max({hi, sum, b.marker.value_or(0)});
    }
    qreal labelWidth = 0;
    for (const ChartBar &b : c.bars)
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(b.label));
    labelWidth = std::min(labelWidth + fm.height() * 0.5, area.width() * 0.4);
    // Room on the right for the last tick's label.
    const QRectF plot(area.left() + labelWidth, area.top(), area.width() - labelWidth - fm.height() * 1.5,
                      area.height() - fm.height() * 2.2);
    const Axis x = axisOver(0, hi, false);
    p.setPen(QPen(QColor(200, 200, 200), 0));
    for (double t : x.ticks(5)) {
        const double px = x.map(t, plot.left(), plot.right());
        p.drawLine(QPointF(px, plot.top()), QPointF(px, plot.bottom()));
        p.setPen(Qt::black);
        p.drawText(QRectF(px - 40 * fm.height(), plot.bottom() + 2, 80 * fm.height(), fm.height()), Qt::AlignHCenter, tickText(t));
        p.setPen(QPen(QColor(200, 200, 200), 0));
    }
    p.setPen(Qt::black);
    p.drawText(QRectF(plot.left(), plot.bottom() + fm.height() * 1.1, plot.width(), fm.height()), Qt::AlignHCenter, c.xLabel);
    const double slot = plot.height() / std::max<std::size_t>(1, c.bars.size());
    for (std::size_t i = 0; i < c.bars.size(); ++i) {
        const ChartBar &b = c.bars[i];
        const double top = plot.top() + slot * i + slot * 0.18;
        const double height = slot * 0.64;
        p.setPen(Qt::black);
        double total = 0;
        for (double v : b.stack)
            total += std::max(0.0, v);
        const QString label = total > 0 ? b.label : b.label + QStringLiteral(" (no figure)");
        p.drawText(QRectF(area.left(), plot.top() + slot * i, labelWidth - fm.height() * 0.3, slot),
                   Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(label, Qt::ElideMiddle, labelWidth - fm.height() * 0.3));
        double start = 0;
        for (int k = 0; k < b.stack.size(); ++k) {
            const double v = std::max(0.0, b.stack[k]);
            if (v <= 0)
                continue;
            const double x0 = x.map(start, plot.left(), plot.right());
            const double x1 = x.map(start + v, plot.left(), plot.right());
            p.fillRect(QRectF(x0, top, x1 - x0, height), chartColour(k));
            start += v;
        }
        if (b.marker) {
            const double mx = x.map(*b.marker, plot.left(), plot.right());
            p.setPen(QPen(Qt::black, fm.height() * 0.12));
            p.drawLine(QPointF(mx, top - slot * 0.12), QPointF(mx, top + height + slot * 0.12));
        }
    }
    p.setPen(QPen(Qt::black, 0));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.topLeft(), plot.bottomLeft());
}

void drawLines(QPainter &p, const ChartSpec &c, const QRectF &area, const QFontMetricsF &fm)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (const ChartSeries &s : c.series)
        for (const QPointF &pt : s.points) {
            if ((c.logX && pt.x() <= 0) || (c.logY && pt.y() <= 0))
                continue;
            xlo = std::min(xlo, pt.x());
            xhi = std::max(xhi, pt.x());
            ylo = std::min(ylo, pt.y());
            yhi = std::max(yhi, pt.y());
        }
    if (c.threshold) {
        ylo = std::min(ylo, *c.threshold);
        yhi = std::max(yhi, *c.threshold);
    }
    if (!std::isfinite(xlo) || !std::isfinite(ylo))
        return;
    const qreal left = fm.horizontalAdvance(QStringLiteral("00000")) + fm.height() * 1.4;
    const QRectF plot(area.left() + left, area.top() + fm.height() * 0.5, area.width() - left - fm.height() * 1.5,
                      area.height() - fm.height() * 3);
    const Axis x = axisOver(xlo, xhi, c.logX);
    const Axis y = axisOver(ylo, yhi, c.logY);
    p.setPen(QPen(QColor(200, 200, 200), 0));
    for (double t : x.ticks(6)) {
        const double px = x.map(t, plot.left(), plot.right());
        p.drawLine(QPointF(px, plot.top()), QPointF(px, plot.bottom()));
        p.setPen(Qt::black);
        p.drawText(QRectF(px - 20 * fm.height(), plot.bottom() + 2, 40 * fm.height(), fm.height()), Qt::AlignHCenter, tickText(t));
        p.setPen(QPen(QColor(200, 200, 200), 0));
    }
    for (double t : y.ticks(5)) {
        const double py = y.map(t, plot.bottom(), plot.top());
        p.drawLine(QPointF(plot.left(), py), QPointF(plot.right(), py));
        p.setPen(Qt::black);
        p.drawText(QRectF(area.left(), py - fm.height() / 2, left - fm.height() * 0.3, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                   tickText(t));
        p.setPen(QPen(QColor(200, 200, 200), 0));
    }
    p.setPen(Qt::black);
    p.drawText(QRectF(plot.left(), plot.bottom() + fm.height() * 1.1, plot.width(), fm.height()), Qt::AlignHCenter, c.xLabel);
    p.save();
    p.translate(area.left() + fm.height() * 0.1, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, 0, plot.height(), fm.height()), Qt::AlignHCenter, c.yLabel);
    p.restore();
    p.save();
    p.setClipRect(plot);
    if (c.threshold) {
        const double py = y.map(*c.threshold, plot.bottom(), plot.top());
        p.setPen(QPen(QColor(213, 94, 0), fm.height() * 0.08, Qt::DashLine));
        p.drawLine(QPointF(plot.left(), py), QPointF(plot.right(), py));
    }
    for (const ChartSeries &s : c.series) {
        QPainterPath path;
        bool first = true;
        for (const QPointF &pt : s.points) {
            if ((c.logX && pt.x() <= 0) || (c.logY && pt.y() <= 0))
                continue;
            const QPointF q(x.map(pt.x(), plot.left(), plot.right()), y.map(pt.y(), plot.bottom(), plot.top()));
            first ? path.moveTo(q) : path.lineTo(q);
            first = false;
        }
        p.setPen(QPen(chartColour(s.colour), fm.height() * 0.14, s.dashed ? Qt::DashLine : Qt::SolidLine));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
    }
    p.restore();
    p.setPen(QPen(Qt::black, 0));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.topLeft(), plot.bottomLeft());
}

// The legend, wrapped over as many lines as it needs (drawn when p is given); returns its height.
qreal drawLegend(QPainter *p, const QRectF &area, const std::vector<std::pair<QString, QColor>> &items, bool dashedLast,
                 const QFontMetricsF &fm)
{
    qreal x = area.left(), y = area.top();
    const qreal swatch = fm.height() * 0.8;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const qreal w = swatch + fm.height() * 0.3 + fm.horizontalAdvance(items[i].first) + fm.height();
        if (x > area.left() && x + w > area.right()) {
            x = area.left();
            y += fm.height() * 1.2;
        }
        if (p && dashedLast && i + 1 == items.size()) {
            p->setPen(QPen(items[i].second, fm.height() * 0.1, Qt::DashLine));
            p->drawLine(QPointF(x, y + fm.height() / 2), QPointF(x + swatch, y + fm.height() / 2));
        } else if (p) {
            p->fillRect(QRectF(x, y + (fm.height() - swatch) / 2, swatch, swatch), items[i].second);
        }
        if (p) {
            p->setPen(Qt::black);
            p->drawText(QPointF(x + swatch + fm.height() * 0.3, y + fm.ascent()), items[i].first);
        }
        x += w;
    }
    return y - area.top() + fm.height() * 1.2;
}

} // namespace

QColor chartColour(int index)
{
    return kPalette[std::size_t(index) % (sizeof kPalette / sizeof kPalette[0])];
}

QSizeF ChartObject::intrinsicSize(QTextDocument *, int, const QTextFormat &format)
{
    return {format.doubleProperty(kWidthProperty), format.doubleProperty(kHeightProperty)};
}

void ChartObject::drawObject(QPainter *painter, const QRectF &rect, QTextDocument *doc, int, const QTextFormat &format)
{
    const int index = format.intProperty(kIndexProperty);
    if (index < 0 || std::size_t(index) >= m_charts.size())
        return;
    const ChartSpec &c = m_charts[std::size_t(index)];
    QPainter &p = *painter;
    p.save();
    QFont font = doc->defaultFont();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    p.setFont(font);
    const QFontMetricsF fm(font, p.device());
    QFont bold = font;
    bold.setBold(true);
    bold.setPointSizeF(font.pointSizeF() * 1.15);
    p.setFont(bold);
    p.setPen(Qt::black);
    const QFontMetricsF fmBold(bold, p.device());
    p.drawText(QRectF(rect.left(), rect.top(), rect.width(), fmBold.height()), Qt::AlignLeft, c.title);
    p.setFont(font);
    QRectF body(rect.left(), rect.top() + fmBold.height() * 1.3, rect.width(), rect.height() - fmBold.height() * 1.3);

    std::vector<std::pair<QString, QColor>> legend;
    bool dashedLast = false;
    if (c.kind == ChartSpec::Kind::Bars) {
        for (int k = 0; k < c.stackNames.size(); ++k)
            legend.emplace_back(c.stackNames[k], chartColour(k));
        if (!c.markerName.isEmpty())
            legend.emplace_back(QStringLiteral("| ") + c.markerName, Qt::white);
    } else {
        for (const ChartSeries &s : c.series)
            legend.emplace_back(s.name, chartColour(s.colour));
        if (c.threshold) {
            legend.emplace_back(c.thresholdName, QColor(213, 94, 0));
            dashedLast = true;
        }
    }
    // The legend and the note go below the plot, so they never cover data.
    const qreal noteHeight = c.note.isEmpty() ? 0 : fm.height() * 2.4;
    const qreal legendHeight = drawLegend(nullptr, QRectF(0, 0, body.width(), 1000), legend, dashedLast, fm);
    const QRectF plotArea(body.left(), body.top(), body.width(), body.height() - legendHeight - noteHeight);
    if (c.kind == ChartSpec::Kind::Bars)
        drawBars(p, c, plotArea, fm);
    else
        drawLines(p, c, plotArea, fm);
    drawLegend(&p, QRectF(body.left(), plotArea.bottom() + fm.height() * 0.2, body.width(), legendHeight), legend, dashedLast, fm);
    if (!c.note.isEmpty()) {
        p.setPen(QColor(80, 80, 80));
        p.drawText(QRectF(body.left(), body.bottom() - noteHeight, body.width(), noteHeight), Qt::AlignLeft | Qt::TextWordWrap,
                   c.note);
    }
    p.restore();
}

} // namespace wb
