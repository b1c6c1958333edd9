// The window renders every engine warning through tr(): each warning's English template is looked
// up in the translation context the engine marks its templates with and rendered with the
// warning's arguments. A translator that marks every template it is asked for («...») must show
// in every warning of every sample; without one the window shows the engine's English, the same
// as gpuwb's JSON; the recommendation's reasons likewise. A click leads to the field the engine
// names.
#include <docks/warningspanel.h>
#include <document/document.h>
#include <parts/messagetext.h>
#include <parts/recommendation.h>

#include "testsupport.h"

#include <QDir>
#include <QListWidget>
#include <QTest>
#include <QTranslator>

namespace {

// Translates every engine template to itself between « and », and every marked word (the unit
// a cost is counted in) between ‹ and › (and nothing else).
class MarkingTranslator : public QTranslator
{
public:
    QString translate(const char *context, const char *source, const char *, int) const override
    {
        if (qstrcmp(context, WB_WORDS_CONTEXT) == 0)
            return QStringLiteral("‹") + QString::fromUtf8(source) + QStringLiteral("›");
        if (qstrcmp(context, WB_MESSAGE_CONTEXT) != 0)
            return {};
        return QStringLiteral("«") + QString::fromUtf8(source) + QStringLiteral("»");
    }
    bool isEmpty() const override { return false; }
};

int warningCount(const wb::Results &results)
{
    std::size_t n = results.briefWarnings.size() + results.cost.warnings.size();
    for (const wb::CandidateResult &r : results.results) {
        for (const wb::Warning &w : r.warnings)
            n += w.code != "catalog-caveat";  // shown in the fit table's tooltips, not the list
        if (r.resized)
            for (const wb::Warning &w : r.resized->warnings)
                n += w.code != "catalog-caveat";
    }
    return int(n);
}

} // namespace

class TestWarningsPanel : public QObject
{
    Q_OBJECT

private slots:
    void everyWarningIsRenderedThroughTr();
};

void TestWarningsPanel::everyWarningIsRenderedThroughTr()
{
    const QDir samples(QStringLiteral(WB_SOURCE_DIR "/resources/samples"));
    const QStringList files = samples.entryList({QStringLiteral("*.brief.json")});
    QVERIFY(files.size() >= 5);
    int shown = 0, withField = 0, reasons = 0, inUnits = 0;
    for (const QString &file : files) {
        wb::Document doc(wbtest::shippedCatalog());
        QVERIFY(!doc.openBriefs({samples.filePath(file)}).has_value());
        QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
        wb::WarningsPanel panel(&doc, {1, 2, 3, 4, 5, 6});
        QListWidget *list = panel.list();
        const int expected = warningCount(doc.results());
        QVERIFY2(expected > 0, qPrintable(file));
        QCOMPARE(list->count(), expected);
        // Without a translation: the engine's English, as the JSON has it.
        for (int i = 0; i < list->count(); ++i)
            QVERIFY2(!list->item(i)->text().contains(u'«'), qPrintable(list->item(i)->text()));

        MarkingTranslator marking;
        QVERIFY(QCoreApplication::installTranslator(&marking));
        emit doc.resultsChanged();  // the panel shows the results again, in the "new language"
        QCOMPARE(list->count(), expected);
        for (int i = 0; i < list->count(); ++i) {
            const QString text = list->item(i)->text();
            QVERIFY2(text.contains(u'«') && text.endsWith(u'»'), qPrintable(file + ": " + text));
            ++shown;
        }
        // The recommendation's reasons too, one marked item each.
        if (const auto &rec = doc.results().cost.recommendation) {
            const QString html = wb::recommendationHtml(doc.results());
            QCOMPARE(html.count(u'«'), qsizetype(rec->reasons.size()));
            reasons += int(rec->reasons.size());
            // A reason that counts in the workload's unit shows the unit translated.
            for (const wb::Message &m : rec->reasons)
                if (m.text.find("{unit}") != std::string::npos) {
                    ++inUnits;
                    const QString unit = QStringLiteral("‹%1›").arg(QString::fromStdString(doc.results().cost.unit));
                    QVERIFY2(html.contains(unit), qPrintable(file + ": " + html));
                }
        }
        QCoreApplication::removeTranslator(&marking);

        // A warning the engine ties to a field leads to that field.
        for (const wb::Warning &w : doc.results().cost.warnings)
            if (!w.field.empty()) {
                ++withField;
                bool found = false;
                for (int i = 0; i < list->count(); ++i)
                    found = found || list->item(i)->data(Qt::UserRole).toString() == QString::fromStdString(w.field);
                QVERIFY2(found, qPrintable(QString::fromStdString(w.code)));
            }
    }
    QVERIFY(withField > 0);
    QVERIFY(reasons > 0);
    QVERIFY(inUnits > 0);
    qInfo("%d warnings shown through the translator", shown);
}

QTEST_MAIN(TestWarningsPanel)
#include "tst_warningspanel.moc"
