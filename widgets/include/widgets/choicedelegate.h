// Edits a cell with a combo box of fixed choices: each choice is a value (stored in the model
// with Qt::EditRole) and the text shown for it.
#pragma once

#include <QStyledItemDelegate>
#include <QVector>

#include <utility>

namespace wb {

class ChoiceDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using Choice = std::pair<QString, QString>;  // value, label
    explicit ChoiceDelegate(QVector<Choice> choices, QObject *parent = nullptr);

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    void setEditorData(QWidget *editor, const QModelIndex &index) const override;
    void setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override;

private:
    QVector<Choice> m_choices;
};

} // namespace wb
