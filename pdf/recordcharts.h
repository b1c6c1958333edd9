// The record's charts, drawn with QPainter as vector graphics inside the report's text
// document (a QTextObjectInterface): horizontal stacked bars (memory per GPU, cost per accepted
// output) and lines on linear or logarithmic axes (latency against load, monthly cost against
// volume). Colours are the Okabe-Ito palette, opaque (PDF/A-1 has no transparency).
#pragma once

#include <QColor>
#include <QObject>
#include <QPointF>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <QTextObjectInterface>
#include <QVector>

#include <optional>
#include <vector>

namespace wb {

struct ChartBar
{
    QString label;
    QVector<double> stack;            // one value per ChartSpec::stackNames entry
    std::optional<double> marker;     // a tick on the bar (its GPU's capacity)
};

struct ChartSeries
{
    QString name;
    QVector<QPointF> points;
    bool dashed = false;
    int colour = 0;                   // index into the palette
};

struct ChartSpec
{
    enum class Kind { Bars, Lines };
    Kind kind = Kind::Bars;
    QString title, xLabel, yLabel;
    QStringList stackNames;           // bars: the stack's parts, in order
    QString markerName;               // bars: what the marker is
    std::vector<ChartBar> bars;
    std::vector<ChartSeries> series;  // lines
    bool logX = false, logY = false;
    std::optional<double> threshold;  // lines: a horizontal dashed limit (an SLO)
    QString thresholdName;
    QString note;                     // under the chart
};

QColor chartColour(int index);

// Registered on a document under chartObjectType(); a chart is inserted as an object character
// whose format carries its index in charts() and its size in points.
class ChartObject : public QObject, public QTextObjectInterface
{
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)

public:
    static int chartObjectType() { return QTextFormat::UserObject + 1; }
    static constexpr int kIndexProperty = QTextFormat::UserProperty + 1;
    static constexpr int kWidthProperty = QTextFormat::UserProperty + 2;
    static constexpr int kHeightProperty = QTextFormat::UserProperty + 3;

    std::vector<ChartSpec> &charts() { return m_charts; }

    QSizeF intrinsicSize(QTextDocument *doc, int posInDocument, const QTextFormat &format) override;
    void drawObject(QPainter *painter, const QRectF &rect, QTextDocument *doc, int posInDocument,
                    const QTextFormat &format) override;

private:
    std::vector<ChartSpec> m_charts;
};

} // namespace wb
