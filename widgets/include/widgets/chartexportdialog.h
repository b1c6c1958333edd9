// The chart export's "another size or resolution": a format, the size the chart is laid out
// at (pixels at 96 DPI, as on screen) and, for PNG, the DPI it is drawn at: 1920 x 1080 at 192
// DPI is a 3840 x 2160 image whose text is as large, relative to the slide, as at 96 DPI. The
// line under the fields says what file comes out (pixels, printed size); OK waits for valid
// numbers.
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
    static constexpr int kMaxPixels = 16384;  // a side of the PNG: 16,384² × 4 bytes is 1 GiB

    explicit ChartExportDialog(QSize initial, QWidget *parent = nullptr);

    QString format() const;  // "png", "svg" or "pdf"
    QSize layoutSize() const;
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
