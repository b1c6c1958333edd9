// ReadableStyle: the platform's style, with check boxes and radio buttons outlined in the
// palette's text colour when the palette is dark. Fusion (Qt's style where no desktop provides
// one) draws an unticked box's frame a shade darker than the window, which vanishes on a dark base:
// Find Layouts' unticked GPUs and precisions could not be seen in dark mode.
#pragma once

#include <QProxyStyle>

namespace wb {

class ReadableStyle : public QProxyStyle
{
public:
    // Wraps `base` (the application's default style when null); takes ownership of it.
    explicit ReadableStyle(QStyle *base = nullptr) : QProxyStyle(base) {}
    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                       const QWidget *widget = nullptr) const override;
};

} // namespace wb
