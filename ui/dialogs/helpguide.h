// Help > Guide and glossary (F1): the pages in the order of the method, and the terms the
// tables and charts use, each with an anchor (#ttft, #tpot, ...) that column tooltips name.
#pragma once

#include <QDialog>

class QTextBrowser;

namespace wb {

class HelpGuide : public QDialog
{
    Q_OBJECT

public:
    explicit HelpGuide(QWidget *parent = nullptr);
    // Scrolls to a glossary term ("ttft", "goodput", ...).
    void showTerm(const QString &anchor);
    QTextBrowser *browser() const { return m_browser; }
    // The guide's HTML, for tests: every glossary anchor the tooltips name is in it.
    static QString html();

private:
    QTextBrowser *m_browser = nullptr;
};

} // namespace wb
