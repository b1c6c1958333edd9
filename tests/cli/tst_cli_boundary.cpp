// gpuwb's last barrier: an exception escaping a command (injected through core/fault.h, as no
// real input provokes one on demand) ends in exit code 1 and one line on stderr, never in an
// abort, and writes nothing to --out.

#include "cli/clirun.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

class TestCliBoundary : public QObject
{
    Q_OBJECT

private slots:
    void anInternalErrorExitsOneWithAMessage();
};

void TestCliBoundary::anInternalErrorExitsOneWithAMessage()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("gpus.json"));
    const QStringList args{QStringLiteral("catalog"), QStringLiteral("gpus"), QStringLiteral("--format"),
                           QStringLiteral("json"), QStringLiteral("--out"), out};
    qputenv("WB_INJECT_FAULT", "gpuwb-internal");
    const wbtest::Run failed = wbtest::gpuwb(args);
    qunsetenv("WB_INJECT_FAULT");
    QCOMPARE(failed.exitCode, 1);  // -1 would be a crash (SIGABRT from an uncaught exception)
    QCOMPARE(failed.err, QStringLiteral("gpuwb: internal error: an internal error injected by a test\n"));
    QVERIFY(!QFile::exists(out));
    // The same command without the fault works: the hook, not the command, failed.
    const wbtest::Run ok = wbtest::gpuwb(args);
    QCOMPARE(ok.exitCode, 0);
    QVERIFY(QFile::exists(out));
}

QTEST_GUILESS_MAIN(TestCliBoundary)
#include "tst_cli_boundary.moc"
