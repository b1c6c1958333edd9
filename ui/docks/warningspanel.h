// Below the pages: every warning of the results (the brief's, the cost model's, each
// candidate's); a click asks to go to the field or page that fixes it.
#pragma once

#include "core/message.h"

#include <QWidget>

class QListWidget;

namespace wb {

class Document;

class WarningsPanel : public QWidget
{
    Q_OBJECT

public:
    // Page numbers the fixes name ("#N"), in the window's order.
    struct Pages
    {
        int brief, candidates, fit, checklist, compare, evidence;
    };
    WarningsPanel(Document *document, Pages pages, QWidget *parent = nullptr);
    QListWidget *list() const { return m_list; }

signals:
    void goTo(const QString &target);

private:
    void showWarnings();
    QString fixFor(const Warning &w) const;

    Document *m_document;
    Pages m_pages;
    QListWidget *m_list = nullptr;
};

} // namespace wb
