#include "widgets/choicedelegate.h"

#include <QComboBox>

namespace wb {

ChoiceDelegate::ChoiceDelegate(QVector<Choice> choices, QObject *parent)
    : QStyledItemDelegate(parent), m_choices(std::move(choices))
{
}

QWidget *ChoiceDelegate::createEditor(QWidget *parent, const QStyleOptionViewItem &, const QModelIndex &) const
{
    auto *box = new QComboBox(parent);
    for (const Choice &c : m_choices)
        box->addItem(c.second, c.first);
    // Commit as soon as a choice is made, not only when the editor loses focus.
    connect(box, &QComboBox::activated, this, [this, box] { emit const_cast<ChoiceDelegate *>(this)->commitData(box); });
    return box;
}

void ChoiceDelegate::setEditorData(QWidget *editor, const QModelIndex &index) const
{
    auto *box = static_cast<QComboBox *>(editor);
    box->setCurrentIndex(std::max(0, box->findData(index.data(Qt::EditRole).toString())));
}

void ChoiceDelegate::setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const
{
    model->setData(index, static_cast<QComboBox *>(editor)->currentData(), Qt::EditRole);
}

} // namespace wb
