#include "widgets/chartview.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include <QEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>

namespace wb {

namespace {

// Okabe-Ito's eight (distinguishable with the common colour-vision deficiencies, on light and
// dark), then darker variants for charts with more series.
const QColor kColors[] = {QColor(0, 114, 178),  QColor(230, 159, 0),  QColor(0, 158, 115),  QColor(204, 121, 167),
                          QColor(86, 180, 233), QColor(213, 94, 0),   QColor(240, 228, 66), QColor(120, 120, 120),
                          QColor(0, 70, 110),   QColor(150, 100, 0),  QColor(0, 100, 70),   QColor(130, 70, 110)};

// Tick labels a slide can show: "10,000" and "20 M", not "1E+04" or "2e+07"; and "0.6", not
// the "0.6000000000000001" that three steps of 0.2 add up to (rounded to 12 significant digits).
QString readableTick(double tick, const QLocale &locale)
{
    if (std::isfinite(tick))
        tick = QString::number(tick, 'g', 12).toDouble();  // the nearest double to the rounded decimal
    const double a = std::abs(tick);
    if (a >= 1e6)
        return readableTick(tick / 1e6, locale) + QStringLiteral(" M");  // "20 M", "1,000 M"
    if (a >= 1 && tick == std::round(tick))
        return locale.toString(tick, 'f', 0);  // grouped: "10,000"
    return locale.toString(tick, 'f', QLocale::FloatingPointShortest);  // "0.5", never "5E-01"
}

template<typename Base>
class ReadableTicker : public Base
{
protected:
    // The interface's locale, not the plot's (QCustomPlot drops the group separator from its own).
    QString getTickLabel(double tick, const QLocale &, QChar, int) override { return readableTick(tick, QLocale()); }
};

} // namespace

ChartView::ChartView(QWidget *parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->legend->setVisible(true);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, &ChartView::showExportMenu);
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, new QCPTextElement(m_plot, QString(), QFont(font().family(), 11, QFont::Bold)));
    // The legend beside the plot, never over the data, its entries together at the top (a
    // spacer below it takes the rest of the height, which the entries were spread over).
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    auto *side = new QCPLayoutGrid;
    m_legendCell = side;
    m_plot->plotLayout()->addElement(1, 1, side);
    side->addElement(0, 0, m_plot->legend);
    side->addElement(1, 0, new QCPLayoutElement(m_plot));
    side->setRowStretchFactor(0, 0.001);
    side->setRowStretchFactor(1, 1);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    m_plot->legend->setMargins(QMargins(6, 4, 6, 4));
    setMinimumHeight(220);
    // The plot's own minimum is its layout's (a title or a colour scale as wide as it is drawn):
    // it must never make the window wider than the screen, so the chart fixes its own.
    m_plot->setMinimumSize(240, 200);
    restyle();
}

ChartView::~ChartView() = default;

void ChartView::setTitle(const QString &title)
{
    m_title = title;
    fitTitleAndLegend();
    m_plot->replot();
}

// A title wider than the chart wraps at spaces rather than being cut at both ends, and the
// legend is given the width its longest entry needs (at any text scale). Where the height cannot
// hold a wrapped title above the legend beside the plot (a chart squeezed under a table at 1280 x
// 800), the layout cut the title's first line off at the top: there the legend is laid out in two
// columns, and the title kept to one line, elided, with the whole of it in the tooltip.
void ChartView::fitTitleAndLegend()
{
    QCPLegend *legend = m_plot->legend;
    const int items = legend->visible() ? legend->itemCount() : 0;
    // Each legend entry's height and the widest's width.
    int widest = 0, itemHeight = 0;
    for (int i = 0; i < items; ++i) {
        QCPAbstractLegendItem *item = legend->item(i);
        if (auto *p = qobject_cast<QCPPlottableLegendItem *>(item))
            widest = std::max(widest, QFontMetrics(p->font()).horizontalAdvance(p->plottable()->name()));
        itemHeight = std::max(itemHeight, std::max(legend->iconSize().height(), QFontMetrics(item->font()).height())
                                              + item->margins().top() + item->margins().bottom());
    }
    const QSize icon = legend->iconSize();
    const int columnWidth = widest > 0 ? widest + icon.width() + legend->iconTextPadding() + 24 : 0;
    const auto legendHeight = [&](int columns) {
        const int rows = (items + columns - 1) / std::max(1, columns);
        return rows == 0 ? 0 : legend->margins().top() + legend->margins().bottom() + rows * itemHeight
                                   + (rows - 1) * legend->rowSpacing();
    };
    const QString text = m_empty ? (m_emptyText.isEmpty() ? tr("Nothing to show yet") : m_emptyText) : m_title;
    auto *t = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0));
    const QFontMetrics metrics(t ? t->font() : font());
    const int titleMargins = t ? t->margins().top() + t->margins().bottom() : 0;
    // The title's lines at a width, wrapped at spaces.
    const auto wrapped = [&](int room) {
        QStringList lines;
        for (const QString &word : text.split(u' ')) {
            if (!lines.isEmpty() && metrics.horizontalAdvance(lines.back() + u' ' + word) <= room)
                lines.back() += u' ' + word;
            else
                lines << word;
        }
        return lines;
    };
    constexpr int kPlotMin = 120;  // the least height the axes and data are drawn in
    // A chart too narrow to give the legend its width beside the plot (more than two fifths of
    // it) shows the legend below the plot instead, so that the data keep their room; one too low
    // for the legend beside in one column takes two, if they fit that two fifths.
    int columns = 1;
    const int roomFor = std::max(0, height() - titleMargins - metrics.lineSpacing() - 16);
    if (items > 1 && legendHeight(1) > roomFor && 2 * columnWidth <= width() * 2 / 5)
        columns = 2;
    const int legendWidth = columns * columnWidth;
    const bool below = legendWidth > 0 && legendWidth > width() * 2 / 5;
    if (below != m_legendBelow) {
        QCPLayoutGrid *grid = m_plot->plotLayout();
        grid->take(m_legendCell);
        if (below)
            grid->addElement(2, 0, m_legendCell);
        else
            grid->addElement(1, 1, m_legendCell);
        if (grid->rowCount() > 2)
            grid->setRowStretchFactor(2, 0.001);
        m_legendCell->setRowStretchFactor(1, below ? 0.001 : 1);
        m_legendBelow = below;
    }
    if (below)
        columns = 1;
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst, false);
    legend->setWrap(columns > 1 ? (items + 1) / 2 : 0);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);  // re-laid out at the wrap
    legend->setMinimumSize(below ? columnWidth : legendWidth, 0);
    if (!t)
        return;
    // The title's cell is as wide as the plot's column: the widget less the legend or the colour
    // scale beside the plot.
    const int beside = (m_legendBelow ? 0 : legendWidth) + (m_colorScale ? 100 : 0);
    const int room = std::max(160, width() - beside - 24);
    QStringList lines = wrapped(room);
    const int plotHeight = m_legendBelow ? kPlotMin + legendHeight(1) : std::max(kPlotMin, legendHeight(columns));
    if (lines.size() > 1 && int(lines.size()) * metrics.lineSpacing() + titleMargins + plotHeight + 16 > height())
        lines = QStringList{metrics.elidedText(text, Qt::ElideRight, room)};
    t->setText(lines.join(u'\n'));
    setToolTip(lines.size() == 1 && lines.front() != text ? text : QString());
}

void ChartView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitTitleAndLegend();
    replotFitted();
}

void ChartView::setAxisLabels(const QString &x, const QString &y)
{
    m_plot->xAxis->setLabel(x);
    m_yLabel = y;
    m_plot->yAxis->setLabel(y);
    replotFitted();
}

// Lays the plot out, then elides the value axis's title to the height it got (a second pass
// only when the title changed).
void ChartView::replotFitted()
{
    m_plot->replot();
    if (fitAxisLabel())
        m_plot->replot();
}

// A value-axis title longer than the plot is tall ran past the plot's top into the chart's title
// ("USD per 1,000 accepted outpu" at 1280 x 800): it is elided instead.
bool ChartView::fitAxisLabel()
{
    const int room = m_plot->axisRect()->height();
    const QString shown = room > 0 ? QFontMetrics(m_plot->yAxis->labelFont()).elidedText(m_yLabel, Qt::ElideRight, room) : m_yLabel;
    if (shown == m_plot->yAxis->label())
        return false;
    m_plot->yAxis->setLabel(shown);
    return true;
}

QString ChartView::title() const
{
    return m_title;
}

void ChartView::setEmptyText(const QString &text)
{
    m_emptyText = text;
}

QColor ChartView::seriesColor(int index) const
{
    return kColors[index % int(std::size(kColors))];
}

void ChartView::setLines(const QVector<Line> &lines, const QVector<Reference> &references, double yMax,
                         const QVector<LineBand> &bands)
{
    removeColorScale();
    m_plot->legend->setVisible(true);
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_bars = false;
    resetAxes(m_logX, m_logY);
    int i = 0;
    bool banded = false;
    for (const Line &l : lines) {
        QCPGraph *g = m_plot->addGraph();
        g->setName(l.name);
        g->setData(l.x, l.y);
        g->setPen(QPen(seriesColor(l.colorIndex >= 0 ? l.colorIndex : i), 2, l.style));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, l.style == Qt::SolidLine ? 5 : 3));
        if (l.pointsOnly) {
            const QColor color = seriesColor(l.colorIndex >= 0 ? l.colorIndex : i);
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(color, 2), QBrush(color), 11));
        }
        // The band: its P90 edge filled down to its P10 edge, translucent, one legend entry.
        const LineBand band = i < bands.size() ? bands[i] : LineBand{};
        if (band.low.size() == l.x.size() && band.high.size() == l.x.size() && !l.x.isEmpty()) {
            QColor shade = seriesColor(l.colorIndex >= 0 ? l.colorIndex : i);
            QCPGraph *low = m_plot->addGraph();
            low->setData(l.x, band.low);
            low->setPen(Qt::NoPen);
            low->removeFromLegend();
            low->setProperty("band", QStringLiteral("low"));
            QCPGraph *high = m_plot->addGraph();
            high->setName(tr("%1: P10-P90").arg(l.name));
            high->setData(l.x, band.high);
            high->setPen(QPen(shade, 0.5, Qt::DotLine));
            shade.setAlpha(30);
            high->setBrush(QBrush(shade));
            high->setChannelFillGraph(low);
            high->removeFromLegend();
            high->setProperty("band", QStringLiteral("edge"));
            banded = true;
        }
        ++i;
    }
    // One legend entry says what the shading is.
    if (banded) {
        QCPGraph *key = m_plot->addGraph();
        key->setName(tr("shaded: P10-P90 band"));
        key->setPen(QPen(Qt::gray, 0.5, Qt::DotLine));
        key->setBrush(QBrush(QColor(128, 128, 128, 60)));
        key->setProperty("band", QStringLiteral("key"));
    }
    for (const Reference &r : references) {
        QCPGraph *g = m_plot->addGraph();
        g->setName(r.name);
        double xmin = 0, xmax = 1;
        bool found = false;
        for (const Line &l : lines)
            for (double x : l.x) {
                xmin = found ? std::min(xmin, x) : x;
                xmax = found ? std::max(xmax, x) : x;
                found = true;
            }
        g->setData({xmin, xmax}, {r.y, r.y});
        g->setPen(QPen(palette().color(QPalette::WindowText), 1.5, Qt::DashLine));
        g->setProperty("reference", true);
    }
    m_plot->rescaleAxes();
    if (!m_logY)
        m_plot->yAxis->setRangeLower(0);
    // Measured points are drawn whole: a margin round them, not a marker cut at the edge.
    if (std::any_of(lines.begin(), lines.end(), [](const Line &l) { return l.pointsOnly; })) {
        const QCPRange x = m_plot->xAxis->range(), y = m_plot->yAxis->range();
        m_plot->xAxis->setRange(m_logX ? x.lower : std::max(0.0, x.lower - 0.04 * x.size()), x.upper + 0.04 * x.size());
        m_plot->yAxis->setRangeUpper(y.upper + 0.08 * y.size());
    }
    if (yMax > 0 && m_plot->yAxis->range().upper > yMax)
        m_plot->yAxis->setRangeUpper(yMax);
    showEmptyState(lines.isEmpty());
    m_plot->replot();
}

void ChartView::setStackedBars(const QStringList &categories, const QVector<Stack> &stacks,
                               const QVector<Reference> &references, const QVector<QPair<double, double>> &bands)
{
    removeColorScale();
    m_plot->legend->setVisible(true);
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_bars = true;
    m_categories = categories;
    resetAxes(false, false);
    QVector<double> ticks;
    for (int c = 0; c < categories.size(); ++c)
        ticks << c + 1;
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    ticker->addTicks(ticks, categories.toVector());
    m_plot->xAxis->setTicker(ticker);
    QCPBars *below = nullptr;
    int i = 0;
    double top = 0;
    QVector<double> totals(categories.size(), 0.0);
    for (const Stack &s : stacks) {
        auto *bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setName(s.name);
        bars->setData(ticks, s.values);
        bars->setWidth(0.6);
        const QColor colour = seriesColor(s.colorIndex >= 0 ? s.colorIndex : i);
        bars->setPen(s.hatched ? QPen(colour, 1) : QPen(Qt::NoPen));
        bars->setBrush(QBrush(colour, s.hatched ? Qt::BDiagPattern : Qt::SolidPattern));
        ++i;
        if (below)
            bars->moveAbove(below);
        below = bars;
        for (int c = 0; c < categories.size() && c < s.values.size(); ++c)
            totals[c] += s.values[c];
    }
    for (double t : totals)
        top = std::max(top, t);
    // Each total's band as whiskers from P10 to P90 on an invisible point at the total.
    if (bands.size() == categories.size() && std::any_of(bands.begin(), bands.end(), [](const auto &b) { return b.second > 0; })) {
        QCPGraph *at = m_plot->addGraph();
        QVector<double> x, y, minus, plus;
        for (int c = 0; c < categories.size(); ++c)
            if (bands[c].second > 0) {
                x << ticks[c];
                y << totals[c];
                minus << std::max(0.0, totals[c] - bands[c].first);
                plus << std::max(0.0, bands[c].second - totals[c]);
                top = std::max(top, bands[c].second);
            }
        at->setName(tr("total"));
        at->setData(x, y);
        at->setLineStyle(QCPGraph::lsNone);
        at->setScatterStyle(QCPScatterStyle::ssNone);
        at->removeFromLegend();
        at->setProperty("band", QStringLiteral("total"));
        auto *whiskers = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
        whiskers->setProperty("band", QStringLiteral("edge"));
        whiskers->setName(tr("P10-P90 band"));
        whiskers->setDataPlottable(at);
        whiskers->setData(minus, plus);
        whiskers->setPen(QPen(palette().color(QPalette::WindowText), 1.5));
        whiskers->setWhiskerWidth(12);
    }
    QStringList named;  // one legend entry per reference name
    for (const Reference &r : references) {
        QCPGraph *g = m_plot->addGraph();
        g->setName(r.name);
        if (r.category >= 0)
            g->setData({r.category + 0.6, r.category + 1.4}, {r.y, r.y});
        else
            g->setData({0.5, categories.size() + 0.5}, {r.y, r.y});
        g->setPen(QPen(palette().color(QPalette::WindowText), 2, Qt::DashLine));
        g->setProperty("reference", true);
        if (named.contains(r.name))
            g->removeFromLegend();
        named << r.name;
        top = std::max(top, r.y);
    }
    m_plot->xAxis->setRange(0.4, categories.size() + 0.6);
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.1 : 1);
    showEmptyState(categories.isEmpty());
    m_plot->replot();
}

void ChartView::setVerticalMarker(double x, const QString &label)
{
    // The marker stays on the chart (the axis widens to it), and its label on the side with room.
    QCPRange range = m_plot->xAxis->range();
    if (x > range.upper || x < range.lower) {
        range.expand(x);
        const double margin = 0.04 * range.size();
        m_plot->xAxis->setRange(range.lower - (x <= range.lower ? margin : 0), range.upper + (x >= range.upper ? margin : 0));
        range = m_plot->xAxis->range();
    }
    const bool labelLeft = range.size() > 0 && (x - range.lower) / range.size() > 0.7;
    auto *line = new QCPItemStraightLine(m_plot);
    line->point1->setCoords(x, 1);
    line->point2->setCoords(x, 2);
    line->setPen(QPen(palette().color(QPalette::WindowText), 1.5, Qt::DashLine));
    auto *text = new QCPItemText(m_plot);
    text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(x, 0.02);
    text->setPositionAlignment((labelLeft ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    text->setPadding(labelLeft ? QMargins(0, 0, 4, 0) : QMargins(4, 0, 0, 0));
    text->setText(label);
    text->setColor(palette().color(QPalette::WindowText));
    text->setFont(scaledFont());
    m_plot->replot();
}

QFont ChartView::scaledFont() const
{
    QFont base = font();
    base.setPointSizeF(base.pointSizeF() * m_textScale);
    return base;
}

void ChartView::showEmptyState(bool empty)
{
    // No data: the title says what to do, and no bare axes or empty legend are drawn.
    m_empty = empty;
    fitTitleAndLegend();
    m_plot->xAxis->setVisible(!empty);
    m_plot->yAxis->setVisible(!empty);
    m_plot->xAxis->grid()->setVisible(!empty);
    m_plot->yAxis->grid()->setVisible(!empty);
    m_plot->legend->setVisible(!empty && m_plot->legend->visible());
}

QStringList ChartView::axisTickLabels(Qt::Orientation orientation) const
{
    const QCPAxis *axis = orientation == Qt::Vertical ? m_plot->yAxis : m_plot->xAxis;
    const QVector<QString> labels = axis->tickVectorLabels();  // a copy each call
    return QStringList(labels.begin(), labels.end());
}

void ChartView::setLogScale(bool x, bool y)
{
    m_logX = x;
    m_logY = y;
}

void ChartView::resetAxes(bool logX, bool logY)
{
    const auto reset = [](QCPAxis *axis, bool log) {
        axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        if (log) {
            auto ticker = QSharedPointer<ReadableTicker<QCPAxisTickerLog>>(new ReadableTicker<QCPAxisTickerLog>);
            ticker->setLogBase(10);
            axis->setTicker(ticker);
        } else {
            axis->setTicker(QSharedPointer<QCPAxisTicker>(new ReadableTicker<QCPAxisTicker>));
        }
    };
    reset(m_plot->xAxis, logX);
    reset(m_plot->yAxis, logY);
}

void ChartView::setTextScale(double factor)
{
    m_textScale = factor;
    const QFont base = scaledFont();
    QFont title = base;
    title.setBold(true);
    title.setPointSizeF(base.pointSizeF() * 1.25);
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setTickLabelFont(base);
        axis->setLabelFont(base);
    }
    m_plot->legend->setFont(base);
    for (int i = 0; i < m_plot->legend->itemCount(); ++i)
        if (auto *item = m_plot->legend->item(i))
            item->setFont(base);
    if (auto *t = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0)))
        t->setFont(title);
    for (int i = 0; i < m_plot->itemCount(); ++i)  // the brief's marker, the heat map's mark
        if (auto *label = qobject_cast<QCPItemText *>(m_plot->item(i)))
            label->setFont(base);
    fitTitleAndLegend();
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QPen pen = m_plot->graph(i)->pen();
        pen.setWidthF(m_plot->graph(i)->property("reference").toBool() ? 1.5 * factor : 2 * factor);
        m_plot->graph(i)->setPen(pen);
    }
    m_plot->replot();
}

int ChartView::seriesCount() const
{
    int n = 0;
    for (int i = 0; i < m_plot->plottableCount(); ++i)
        n += m_plot->plottable(i)->property("band").isValid() ? 0 : 1;
    return n;
}

int ChartView::bandCount() const
{
    int n = 0;
    for (int i = 0; i < m_plot->plottableCount(); ++i)
        n += m_plot->plottable(i)->property("band").toString() == QLatin1String("edge") ? 1 : 0;
    return n;
}

QString ChartView::valueAt(const QPoint &pos) const
{
    int index = -1;
    QCPAbstractPlottable *p = m_plot->plottableAt(m_plot->mapFrom(this, pos), false, &index);
    if (!p)
        return {};
    if (!qobject_cast<QCPColorMap *>(p) && index < 0)
        return {};
    if (auto *bars = qobject_cast<QCPBars *>(p)) {
        const auto it = bars->data()->at(index);
        const QString category = m_categories.value(int(it->key) - 1);
        return tr("%1 — %2: %3").arg(category, bars->name(), QLocale().toString(it->value, 'g', 4));
    }
    if (auto *map = qobject_cast<QCPColorMap *>(p)) {
        double key = 0, value = 0;
        map->pixelsToCoords(m_plot->mapFrom(this, pos), key, value);
        const int c = int(std::lround(key)), r = int(std::lround(value));
        if (c < 0 || r < 0 || c >= m_heatColumns.size() || r >= m_heatRows.size())
            return {};
        return tr("%1 %2, %3 %4: %5 %6")
            .arg(m_yLabel, m_heatRows[r], m_plot->xAxis->label(), m_heatColumns[c], m_heatValueName,
                 QLocale().toString(map->data()->cell(c, r), 'f', 2));
    }
    if (auto *g = qobject_cast<QCPGraph *>(p)) {
        const auto it = g->data()->at(index);
        return tr("%1: %2 = %3, %4 = %5")
            .arg(g->name(), m_plot->xAxis->label(), QLocale().toString(it->key, 'g', 4), m_yLabel,
                 QLocale().toString(it->value, 'g', 4));
    }
    return {};
}

bool ChartView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::MouseMove) {
        const auto *move = static_cast<QMouseEvent *>(event);
        const QPoint here = m_plot->mapTo(this, move->position().toPoint());
        const QString text = valueAt(here);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(move->globalPosition().toPoint(), text, m_plot);
    }
    return QWidget::eventFilter(watched, event);
}

void ChartView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        restyle();
    QWidget::changeEvent(event);
}

// Axes, grid, legend and title in the palette's colours, so that dark mode is readable.
void ChartView::restyle()
{
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QColor base = pal.color(QPalette::Base);
    QColor grid = text;
    grid.setAlpha(40);
    m_plot->setBackground(base);
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    }
    m_plot->legend->setBrush(base);
    m_plot->legend->setBorderPen(QPen(grid));
    m_plot->legend->setTextColor(text);
    if (auto *t = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0)))
        t->setTextColor(text);
    for (int i = 0; i < m_plot->graphCount(); ++i)
        if (m_plot->graph(i)->property("reference").toBool())
            m_plot->graph(i)->setPen(QPen(text, 1.5, Qt::DashLine));
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        if (auto *line = qobject_cast<QCPItemStraightLine *>(m_plot->item(i)))
            line->setPen(QPen(text, 1.5, Qt::DashLine));
        else if (auto *label = qobject_cast<QCPItemText *>(m_plot->item(i)))
            label->setColor(text);
    }
    m_plot->replot();
}

} // namespace wb
