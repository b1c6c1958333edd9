// ChartView's heat map (setHeatmap) and its colour scale, apart from the line and bar charts.
#include "widgets/chartview.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

namespace wb {

void ChartView::removeColorScale()
{
    if (!m_colorScale)
        return;
    m_plot->plotLayout()->remove(m_colorScale);  // deletes it
    m_plot->plotLayout()->simplify();
    m_colorScale = nullptr;
}

void ChartView::setHeatmap(const QStringList &columns, const QStringList &rows, const QVector<double> &values,
                           double low, double high, const QString &valueName, std::function<QString(double)> scaleLabel,
                           std::optional<QPointF> mark, const QString &markLabel)
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_bars = false;
    m_heatColumns = columns;
    m_heatRows = rows;
    m_heatValueName = valueName;
    resetAxes(false, false);
    m_plot->legend->setVisible(false);  // one series: the colours are explained by the caller's title
    auto *map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    map->setName(valueName);
    map->data()->setSize(int(columns.size()), int(rows.size()));
    map->data()->setRange(QCPRange(0, std::max<qsizetype>(1, columns.size() - 1)),
                          QCPRange(0, std::max<qsizetype>(1, rows.size() - 1)));
    for (int r = 0; r < rows.size(); ++r)
        for (int c = 0; c < columns.size(); ++c)
            map->data()->setCell(c, r, values.value(r * int(columns.size()) + c));
    // Warning colour for the worst values, through grey, to the series blue for the best.
    QCPColorGradient gradient;
    gradient.setColorStopAt(0.0, QColor(213, 94, 0));
    gradient.setColorStopAt(0.5, QColor(235, 235, 235));
    gradient.setColorStopAt(1.0, QColor(0, 114, 178));
    map->setGradient(gradient);
    map->setDataRange(QCPRange(low, high));
    map->setInterpolate(false);
    // The colour scale: what a colour means, in the caller's words.
    if (!m_colorScale) {
        m_colorScale = new QCPColorScale(m_plot);
        m_plot->plotLayout()->addElement(1, 2, m_colorScale);
        m_colorScale->setType(QCPAxis::atRight);
        m_colorScale->setBarWidth(14);
        auto *group = new QCPMarginGroup(m_plot);  // the scale as tall as the map
        m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
        m_colorScale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    }
    map->setColorScale(m_colorScale);
    m_colorScale->setGradient(gradient);
    m_colorScale->setDataRange(QCPRange(low, high));
    m_colorScale->axis()->setLabel(valueName);
    auto scaleTicks = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (int i = 0; i <= 4; ++i) {
        const double v = low + (high - low) * i / 4;
        scaleTicks->addTick(v, scaleLabel ? scaleLabel(v) : QString::number(v));
    }
    m_colorScale->axis()->setTicker(scaleTicks);
    const QColor text = palette().color(QPalette::WindowText);
    m_colorScale->axis()->setTickLabelColor(text);
    m_colorScale->axis()->setLabelColor(text);
    m_colorScale->axis()->setBasePen(QPen(text));
    m_colorScale->axis()->setTickPen(QPen(text));
    // The caller's point (the brief's own), ringed and labelled.
    if (mark) {
        QCPGraph *point = m_plot->addGraph();
        point->setName(markLabel);
        point->setData({mark->x()}, {mark->y()});
        point->setLineStyle(QCPGraph::lsNone);
        point->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(text, 2.5), Qt::NoBrush, 18));
        point->removeFromLegend();
        auto *label = new QCPItemText(m_plot);
        label->position->setCoords(mark->x(), mark->y());
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setText(markLabel);
        label->setColor(text);
        label->setFont(scaledFont());
        label->setBrush(palette().color(QPalette::Window));
        label->setPadding(QMargins(4, 1, 4, 1));
        label->setClipToAxisRect(false);
    }
    const auto ticks = [](const QStringList &labels) {
        auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
        for (int i = 0; i < labels.size(); ++i)
            ticker->addTick(i, labels[i]);
        return ticker;
    };
    m_plot->xAxis->setTicker(ticks(columns));
    m_plot->yAxis->setTicker(ticks(rows));
    m_plot->xAxis->setRange(-0.5, columns.size() - 0.5);
    m_plot->yAxis->setRange(-0.5, rows.size() - 0.5);
    showEmptyState(rows.isEmpty() || columns.isEmpty());
    m_plot->replot();
}

} // namespace wb
