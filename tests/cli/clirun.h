// Running gpuwb as a user does, for the command-line tests: its exit code, stdout and stderr.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

// AddressSanitizer: GCC says so with __SANITIZE_ADDRESS__, clang 14 only through __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define WB_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WB_UNDER_ASAN 1
#endif
#endif
#ifndef WB_UNDER_ASAN
#define WB_UNDER_ASAN 0
#endif

namespace wbtest {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

// One run of gpuwb. A run that has not finished in its time (two minutes, four times that when
// instrumented) is killed and reported as exit code -1 with a message, never as the exit code
// QProcess keeps from before it started.
inline Run gpuwb(const QStringList &args)
{
    constexpr int seconds = WB_UNDER_ASAN ? 480 : 120;
    QProcess p;
    p.start(QStringLiteral(GPUWB_EXE), args);
    if (!p.waitForFinished(seconds * 1000)) {
        p.kill();
        p.waitForFinished();
        return {-1, QString::fromUtf8(p.readAllStandardOutput()),
                QStringLiteral("gpuwb %1 did not finish in %2 s").arg(args.join(QLatin1Char(' '))).arg(seconds)};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// gpuwb under an address-space limit of 2 GiB (not under AddressSanitizer, which reserves far
// more address space than it uses) and a time limit; `finished` false when it ran past it.
inline Run gpuwbLimited(const QStringList &args, int seconds, bool *finished)
{
    QProcess p;
#if WB_UNDER_ASAN
    p.start(QStringLiteral(GPUWB_EXE), args);
    seconds *= 4;  // instrumented, and nothing else measured here
#else
    p.start(QStringLiteral("/bin/sh"),
            QStringList{QStringLiteral("-c"), QStringLiteral("ulimit -v 2097152 && exec \"$0\" \"$@\""),
                        QStringLiteral(GPUWB_EXE)}
                + args);
#endif
    *finished = p.waitForFinished(seconds * 1000);
    if (!*finished) {
        p.kill();
        p.waitForFinished();
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace wbtest
