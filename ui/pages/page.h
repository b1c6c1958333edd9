// A page of the window: one step of the method (brief, candidates, fit, performance, cost,
// compare). Each page owns its models and charts and updates itself from the document's
// signals, once per change, from the engine's typed results; no page re-parses JSON or knows
// another page. MainWindow only places pages and routes goTo().
#pragma once

#include <QWidget>

class QComboBox;

namespace wb {

class ChartView;
class Document;

class Page : public QWidget
{
    Q_OBJECT

public:
    explicit Page(Document *document, QWidget *parent = nullptr);

    // The chart View > Present Chart shows, and the choice its arrow keys step through.
    virtual ChartView *chart() const { return nullptr; }
    virtual QComboBox *chartChoice() const { return nullptr; }

signals:
    // Asks to show what fixes something: a brief field (a JSON pointer) or a page ("#N").
    void goTo(const QString &target);

protected:
    Document *document() const { return m_document; }

private:
    Document *m_document;
    QString m_scenario;  // the scenario shown: scroll positions are reset when it changes
};

} // namespace wb
