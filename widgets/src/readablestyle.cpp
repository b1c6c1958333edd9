#include "widgets/readablestyle.h"

#include <QPainter>
#include <QStyleOption>

namespace wb {

void ReadableStyle::drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                                  const QWidget *widget) const
{
    QProxyStyle::drawPrimitive(element, option, painter, widget);
    if (element != PE_IndicatorCheckBox && element != PE_IndicatorRadioButton)
        return;
    const QPalette &p = option->palette;
    if (p.color(QPalette::Base).lightness() >= 128)
        return;  // a light palette: the style's own frame shows
    // Halfway between the text and the base: visible, and quieter than a ticked box's mark.
    const QColor text = p.color(option->state & State_Enabled ? QPalette::Active : QPalette::Disabled, QPalette::Text);
    const QColor base = p.color(QPalette::Base);
    const QColor frame((text.red() + base.red()) / 2, (text.green() + base.green()) / 2, (text.blue() + base.blue()) / 2);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, element == PE_IndicatorRadioButton);
    painter->setPen(QPen(frame, 1));
    painter->setBrush(Qt::NoBrush);
    const QRectF box = QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5);
    if (element == PE_IndicatorRadioButton)
        painter->drawEllipse(box);
    else
        painter->drawRect(box);
    painter->restore();
}

} // namespace wb
