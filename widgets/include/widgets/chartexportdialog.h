// The chart export's "another size or resolution": a format, the image's size in pixels and, for
// PNG, its DPI, which sizes the text for a print at that density: 3,000 x 2,000 pixels at 300 DPI
// is a 25 x 17 cm print whose chart is laid out at 960 x 640 points (96 DPI) and drawn 3.125
// times as fine. The line under the fields says what file comes out (pixels, printed size); OK
// waits for valid numbers.
#pragma once

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;

namespace wb {

class NumberEdit;

class ChartExportDialog : public QDialog
{
    Q_OBJECT

public:

    explicit ChartExportDialog(QSize initial, QWidget *parent = nullptr);

    QString format() const;  // "png", "svg" or "pdf"
    QSize pixelSize() const;   // as typed
    QSize layoutSize() const;  // what the chart is laid out at: pixels at 96 DPI
    int dpi() const;
    double scale() const { return dpi() / 96.0; }  // PNG pixels per layout pixel
    // What stops the export ("the width must be between …"), or empty.
    QString problem() const;

    QComboBox *formatBox() const { return m_format; }
    NumberEdit *widthEdit() const { return m_width; }
    NumberEdit *heightEdit() const { return m_height; }
    NumberEdit *dpiEdit() const { return m_dpi; }
    QString summary() const;

private:
    void update();

    QComboBox *m_format = nullptr;
    NumberEdit *m_width = nullptr, *m_height = nullptr, *m_dpi = nullptr;
    QLabel *m_summary = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace wb
