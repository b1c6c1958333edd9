// Paints a number in [0, 1] (Qt::UserRole of the index, a double) as a horizontal bar behind the
// cell's display text: a quick visual of shares such as memory headroom. Values below
// warnBelow use the warning colour; negative values draw no bar. Colours follow the palette.
#pragma once

#include <QStyledItemDelegate>

namespace wb {

class FractionBarDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    explicit FractionBarDelegate(QObject *parent = nullptr);

    void setWarnBelow(double fraction) { m_warnBelow = fraction; }
    double warnBelow() const { return m_warnBelow; }

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    double m_warnBelow = 0.1;
};

} // namespace wb
