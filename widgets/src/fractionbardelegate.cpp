#include "widgets/fractionbardelegate.h"

#include <QApplication>
#include <QPainter>

namespace wb {

FractionBarDelegate::FractionBarDelegate(QObject *parent) : QStyledItemDelegate(parent) {}

void FractionBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QVariant value = index.data(Qt::UserRole);
    if (!value.isValid()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    const double fraction = value.toDouble();
    const QRect area = opt.rect.adjusted(3, 4, -3, -4);
    painter->save();
    if (fraction > 0) {
        // Green-ish from the palette's highlight when healthy, an amber when tight.
        QColor bar = fraction < m_warnBelow ? QColor(230, 159, 0) : opt.palette.color(QPalette::Highlight);
        bar.setAlpha(90);
        QRect filled = area;
        filled.setWidth(int(area.width() * std::min(1.0, fraction)));
        painter->fillRect(filled, bar);
    }
    painter->setPen(opt.palette.color(opt.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(area.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignRight, text);
    painter->restore();
}

} // namespace wb
