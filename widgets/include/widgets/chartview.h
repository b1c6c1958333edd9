// ChartView: the one place charts are drawn (QCustomPlot stays private to it). Line charts of
// named series with optional horizontal reference lines (an SLO), and stacked bar charts by
// category. Hovering shows the value under the pointer; a legend names the series; the context
// menu exports PNG, SVG or PDF (chartexport.cpp); colours follow the palette and change with it (dark mode).
// Knows nothing of the engine.
#pragma once

#include <QVector>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

#include <QPointF>
#include <QSize>

class QCustomPlot;
class QCPColorScale;
class QCPLayoutGrid;

namespace wb {

class ChartView : public QWidget
{
    Q_OBJECT

public:
    struct Line
    {
        QString name;
        QVector<double> x, y;
        Qt::PenStyle style = Qt::SolidLine;  // a second property by line style (pricing routes)
        int colorIndex = -1;                  // the palette colour to use; -1: the line's position
        bool pointsOnly = false;              // measured points: large markers, no line between them
    };
    // How far each point of a line can be trusted (P10 and P90 per point), drawn as a shaded
    // band in the line's colour; empty: none.
    struct LineBand
    {
        QVector<double> low, high;
    };
    struct Reference
    {
        QString name;
        double y = 0;
        int category = -1;  // bar charts: drawn across that bar only (its capacity); -1: across all
    };
    struct Stack
    {
        QString name;
        QVector<double> values;  // one per category
        int colorIndex = -1;     // the palette colour to use; -1: the stack's position
        bool hatched = false;    // drawn in diagonal lines: the same kind of cost from another source
    };

    explicit ChartView(QWidget *parent = nullptr);
    ~ChartView() override;

    void setTitle(const QString &title);
    QString title() const;
    void setAxisLabels(const QString &x, const QString &y);
    // Empty data clears the chart and shows `emptyText` instead. yMax > 0 caps the value axis
    // (points above it run off the top), so that a few overloaded points do not flatten the
    // region that matters.
    // `bands`, when given, go with `lines` one for one.
    void setLines(const QVector<Line> &lines, const QVector<Reference> &references = {}, double yMax = 0,
                  const QVector<LineBand> &bands = {});
    // `bands` (one per category, or empty) are the total's P10 and P90, drawn as whiskers on
    // each bar; a category whose pair is (0, 0) has none.
    void setStackedBars(const QStringList &categories, const QVector<Stack> &stacks,
                        const QVector<Reference> &references = {}, const QVector<QPair<double, double>> &bands = {});
    void setEmptyText(const QString &text);
    // A labelled vertical dashed line at x on the current line chart (the brief's own point).
    void setVerticalMarker(double x, const QString &label);
    // Logarithmic axes for the following setLines (values must be positive there).
    void setLogScale(bool x, bool y);
    // A heat map: values[row * columns.size() + column], coloured from `low` (warning colour)
    // through the middle to `high`, with a colour scale beside it whose ticks `scaleLabel` writes
    // (a fraction as a percentage, say); hovering names the row, the column and the value. `mark`
    // (column, row, in cell units; fractional between cells) is labelled on the map.
    void setHeatmap(const QStringList &columns, const QStringList &rows, const QVector<double> &values, double low,
                    double high, const QString &valueName, std::function<QString(double)> scaleLabel = {},
                    std::optional<QPointF> mark = {}, const QString &markLabel = {});

    // Writes the chart to path; the suffix picks the format (png, svg, pdf), width x height the
    // size in points and `scale` the pixels per point of a PNG (2: a sharp slide on a dense
    // screen); `pixels`, when given, is a PNG's exact size (the drawing is scaled to fill it).
    // The stamp, when set, is written in the image's bottom-right corner. Returns an error
    // message naming the path, or an empty string.
    QString exportTo(const QString &path, int width = 1920, int height = 1080, double scale = 1, QSize pixels = {});
    // Who and when, for exported images ("Chat scenario · 2026-12-01 · GPU Workbench").
    void setStamp(const QString &stamp) { m_stamp = stamp; }
    // The file name an export offers: the stamp's first part and the title, made safe for a file
    // system, then the date: "chat-scenario-p99-time-to-first-token-2026-12-01".
    QString defaultExportName() const;
    // The text the hover tooltip shows at a widget position (empty when nothing is there).
    QString valueAt(const QPoint &pos) const;
    int seriesCount() const;   // lines, bars and references, not the bands drawn round them
    int bandCount() const;     // lines drawn with a band, and bars with whiskers
    // The labels the value axis (Qt::Vertical) or the category axis shows now, as drawn.
    QStringList axisTickLabels(Qt::Orientation orientation) const;
    // Scales every text of the chart (1: normal; about 1.8 for projecting).
    void setTextScale(double factor);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void restyle();
    void fitTitleAndLegend();
    // The value axis's title elided to the height the plot has (laid out by a replot first);
    // returns whether it changed.
    bool fitAxisLabel();
    void replotFitted();  // replot, with the value axis's title fitted
    void removeColorScale();
    void resetAxes(bool logX, bool logY);
    void showEmptyState(bool empty);
    void showExportMenu(const QPoint &pos);
    QColor seriesColor(int index) const;
    QFont scaledFont() const;  // the widget's font at the text scale

    QCustomPlot *m_plot = nullptr;
    QString m_emptyText;
    QString m_stamp;
    QString m_title;  // as set; shown wrapped to the chart's width
    QString m_yLabel; // the value axis's title as set; shown elided to the plot's height
    bool m_empty = false;  // showing the empty text instead
    bool m_bars = false;
    bool m_logX = false, m_logY = false;
    double m_textScale = 1;
    QStringList m_categories;
    QStringList m_heatColumns, m_heatRows;
    QCPColorScale *m_colorScale = nullptr;  // beside a heat map only
    QCPLayoutGrid *m_legendCell = nullptr;  // the legend and a spacer: beside the plot, or below it when narrow
    bool m_legendBelow = false;
    QString m_heatValueName;
};

} // namespace wb
