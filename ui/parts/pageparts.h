// Small pieces the pages and dialogs of the window share: headings and result tables styled
// alike. Private to ui/.
#pragma once

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace wb::pageparts {

inline QLabel *titleLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    QFont font = label->font();
    font.setPointSizeF(font.pointSizeF() * 1.3);
    font.setBold(true);
    label->setFont(font);
    return label;
}

inline QLabel *subtitleLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    return label;
}

// A wrapping rich-text label (recommendations, lists of reasons) with its accessible name.
inline QLabel *richLabel(const QString &accessibleName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setAccessibleName(accessibleName);
    return label;
}

// A page's layout, opened by its title (the question the page answers) and a subtitle.
inline QVBoxLayout *headedPage(QWidget *page, const QString &title, const QString &subtitle, QLabel **titleOut = nullptr)
{
    auto *layout = new QVBoxLayout(page);
    QLabel *heading = titleLabel(page);
    heading->setText(title);
    layout->addWidget(heading);
    if (!subtitle.isEmpty())
        layout->addWidget(subtitleLabel(subtitle, page));
    if (titleOut)
        *titleOut = heading;
    return layout;
}

// A read-only-looking table of whole rows, columns sized to their contents.
inline QTableView *resultTable(QAbstractItemModel *model, const QString &name, QWidget *parent)
{
    auto *table = new QTableView(parent);
    table->setModel(model);
    table->setAccessibleName(name);
    table->setAlternatingRowColors(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

} // namespace wb::pageparts
