#include "pdf/recordpdf.h"

#include "recordcharts.h"

#include <QAbstractTextDocumentLayout>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextCursor>
#include <QTextDocument>
#include <QUuid>

#include <cmath>
#include <map>

namespace wb {

namespace {

// An option's (or a line's) amount: a month of serving, or one completed training run
// ("period": "run", results JSON), and the words for that period.
// A duration for people: hours below two days, else days; "-" when absent.
QString duration(const QJsonValue &seconds)
{
    if (!seconds.isDouble())
        return QStringLiteral("-");
    const double s = seconds.toDouble();
    return s < 2 * 86400 ? QStringLiteral("%1 h").arg(s / 3600, 0, 'f', 1) : QStringLiteral("%1 days").arg(s / 86400, 0, 'f', 1);
}

QJsonValue amountOf(const QJsonObject &o)
{
    return o.contains(QLatin1String("usd_per_run")) ? o.value(QLatin1String("usd_per_run")) : o.value(QLatin1String("usd_per_month"));
}


// --- Figures as text (English, C locale: the document finance signs must not depend on the
// machine that printed it) ---

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

QString str(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 6);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    if (v.isNull() || v.isUndefined())
        return QStringLiteral("-");
    return QString::fromUtf8(QJsonDocument(v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject())).toJson(
        QJsonDocument::Compact));
}

QString grouped(double v, int decimals)
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    return c.toString(v, 'f', decimals);
}

QString money(const QJsonValue &v)
{
    return v.isDouble() ? QStringLiteral("$") + grouped(v.toDouble(), 2) : QStringLiteral("-");
}

// Costs per output: enough digits to tell options apart.
QString moneyFine(const QJsonValue &v)
{
    if (!v.isDouble())
        return QStringLiteral("-");
    // Six decimals, as the window and the CLI give a cost per output ($0.001528, not $0.00153),
    // and more where a cost is below a ten-thousandth of a dollar.
    const double x = v.toDouble();
    const int decimals = x >= 1 ? 2 : std::clamp(2 - int(std::floor(std::log10(std::max(x, 1e-12)))), 6, 10);
    return QStringLiteral("$") + QString::number(x, 'f', decimals);
}

// A rate in requests a second, to the hundredth whatever its size (a column of them lines up).
QString rate(const QJsonValue &v)
{
    return v.isDouble() ? grouped(v.toDouble(), 2) : QStringLiteral("-");
}

QString number(const QJsonValue &v, int significant = 3)
{
    if (!v.isDouble())
        return QStringLiteral("-");
    const double x = v.toDouble();
    if (std::abs(x) >= 1000)
        return grouped(x, 0);
    return QString::number(x, 'g', significant);
}

QString percent(const QJsonValue &v)
{
    return v.isDouble() ? QString::number(100 * v.toDouble(), 'f', 1) + QLatin1Char('%') : QStringLiteral("-");
}

QString milliseconds(const QJsonValue &v)
{
    return v.isDouble() ? grouped(1000 * v.toDouble(), v.toDouble() < 0.1 ? 1 : 0) + QStringLiteral(" ms") : QStringLiteral("-");
}

QString gib(const QJsonValue &v)
{
    return v.isDouble() ? QString::number(v.toDouble() / (1024.0 * 1024 * 1024), 'f', 1) + QStringLiteral(" GiB")
                        : QStringLiteral("-");
}

// A run's load as the evidence list gives it: a rate, a concurrency or offline.
QString loadText(const QJsonObject &load)
{
    if (load.contains(QLatin1String("request_rate_per_s")))
        return number(load.value(QLatin1String("request_rate_per_s")), 4) + QStringLiteral(" requests/s");
    if (load.contains(QLatin1String("concurrency")))
        return QString::number(load.value(QLatin1String("concurrency")).toInt()) + QStringLiteral(" concurrent");
    return QStringLiteral("offline");
}

QString candidateLabel(const QJsonObject &c)
{
    QString label = QStringLiteral("%1x %2").arg(c.value(QLatin1String("gpus")).toInt()).arg(c.value(QLatin1String("gpu")).toString());
    const int tp = c.value(QLatin1String("tensor_parallel")).toInt(1), pp = c.value(QLatin1String("pipeline_parallel")).toInt(1);
    if (tp > 1)
        label += QStringLiteral(" TP%1").arg(tp);
    if (pp > 1)
        label += QStringLiteral(" PP%1").arg(pp);
    label += QStringLiteral(" (%1)").arg(c.value(QLatin1String("serving_stack")).toString());
    if (const int entered = c.value(QLatin1String("sized_from_gpus")).toInt(); entered > 0)
        label += QStringLiteral(", sized from %1").arg(entered);
    return label;
}

// Each candidate's deployment, as every page of the window shows it: the engine's resize (laid
// out anew to hold the brief, or sized for the peak) when it has one, its candidate marked with
// the count entered.
QJsonArray deployments(const QJsonArray &results)
{
    QJsonArray out;
    for (const QJsonValue &v : results) {
        const QJsonObject entered = v.toObject();
        QJsonObject d = entered.value(QLatin1String("resized")).toObject();
        if (d.isEmpty()) {
            out.append(entered);
            continue;
        }
        QJsonObject candidate = d.value(QLatin1String("candidate")).toObject();
        candidate[QStringLiteral("sized_from_gpus")] = entered.value(QLatin1String("candidate")).toObject().value(QLatin1String("gpus"));
        d[QStringLiteral("candidate")] = candidate;
        out.append(d);
    }
    return out;
}

QString optionLabel(const QJsonObject &o)
{
    if (o.value(QLatin1String("route")).toString() == QLatin1String("api"))
        return QStringLiteral("model API");
    QString term = o.value(QLatin1String("term")).toString();
    if (o.value(QLatin1String("route")).toString() == QLatin1String("hybrid"))
        term = QStringLiteral("hybrid");
    return term;
}

// A cost line's title as the window and the workbook print it (results' "title"); a record made
// before the results carried one gets its name in words.
QString lineTitle(const QJsonObject &line)
{
    if (const QString title = line.value(QLatin1String("title")).toString(); !title.isEmpty())
        return title;
    QString name = line.value(QLatin1String("name")).toString();
    name.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!name.isEmpty())
        name[0] = name[0].toUpper();
    return name;
}

// --- HTML building ---

struct Table
{
    QStringList headers;
    QList<QStringList> rows;          // cells already escaped (HTML)
    QList<bool> emphasised;           // per row: bold (totals, the decision)
    QList<int> rightAligned;          // numeric columns
    QList<int> widths = {};           // per column, percent of the page (empty: Qt decides)
};

QString tableHtml(const Table &t)
{
    QString h = QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"3\" border=\"1\" "
                               "style=\"border-color:#999999; border-collapse: collapse;\"><thead><tr>");
    for (int c = 0; c < t.headers.size(); ++c)
        h += QStringLiteral("<th style=\"background-color:#e8e8e8;\" align=\"left\"%1>")
                 .arg(c < t.widths.size() ? QStringLiteral(" width=\"%1%\"").arg(t.widths[c]) : QString())
            + esc(t.headers[c]) + QStringLiteral("</th>");
    h += QStringLiteral("</tr></thead><tbody>");
    for (int r = 0; r < t.rows.size(); ++r) {
        const bool bold = r < t.emphasised.size() && t.emphasised[r];
        h += QStringLiteral("<tr>");
        for (int c = 0; c < t.rows[r].size(); ++c) {
            const QString cell = bold ? QStringLiteral("<b>") + t.rows[r][c] + QStringLiteral("</b>") : t.rows[r][c];
            // A figure is never broken across lines ("$30,069.0|5" once).
            h += (t.rightAligned.contains(c) ? QStringLiteral("<td align=\"right\" style=\"white-space: nowrap;\">")
                                             : QStringLiteral("<td>"))
                + cell
                + QStringLiteral("</td>");
        }
        h += QStringLiteral("</tr>");
    }
    return h + QStringLiteral("</tbody></table>");
}

QString heading(const QString &text, bool newPage = true)
{
    return QStringLiteral("<h2 style=\"%1\">%2</h2>")
        .arg(newPage ? QStringLiteral("page-break-before: always;") : QString(), esc(text));
}

QString para(const QString &text)
{
    return QStringLiteral("<p>") + esc(text) + QStringLiteral("</p>");
}

// A chart's place in the HTML: a marker with a key no text of the record can know.
const QString &chartKey()
{
    static const QString key = QUuid::createUuid().toString(QUuid::WithoutBraces);
    return key;
}

QString chartMarker(int index)
{
    return QStringLiteral("[[chart:%1:%2]]").arg(chartKey()).arg(index);
}

QString chartPlaceholder(int index)
{
    return QStringLiteral("<p>") + chartMarker(int(index)) + QStringLiteral("</p>");
}

// Every scalar of a JSON object as "a / b / c" -> value, in document order.
void flatten(const QJsonValue &v, const QString &path, QList<QPair<QString, QString>> &out)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            flatten(it.value(), path.isEmpty() ? it.key() : path + QStringLiteral(" / ") + it.key(), out);
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (int i = 0; i < a.size(); ++i)
            flatten(a[i], path + QStringLiteral(" / ") + QString::number(i + 1), out);
    } else {
        out.append({path, str(v)});
    }
}

class Report
{
public:
    explicit Report(const QJsonObject &record)
        : m_record(record), m_results(record.value(QLatin1String("results")).toObject()),
          m_candidates(deployments(m_results.value(QLatin1String("results")).toArray()))
    {
    }

    QString html(std::vector<ChartSpec> &charts)
    {
        QString h;
        h += cover();
        h += brief();
        h += candidates();
        h += chartsSection(charts);
        h += normalization();
        h += bands();
        h += costLines();
        h += breakEvens();
        h += assumptions();
        h += evidence();
        h += checklist();
        h += mistakes();
        h += plan();
        h += signOff();
        h += appendix();
        return h;
    }

private:
    QJsonObject m_record, m_results;
    QJsonArray m_candidates;

    QJsonObject cost() const { return m_results.value(QLatin1String("cost")).toObject(); }
    // What a cost per accepted output counts ("evaluated record"), in the singular and the plural;
    // a record saved before the results named it counted accepted outputs.
    QString unit() const
    {
        return cost().value(QLatin1String("accepted_unit")).toString(perRun() ? QStringLiteral("accepted run") : QStringLiteral("accepted output"));
    }
    QString units() const { return cost().value(QLatin1String("accepted_units")).toString(QStringLiteral("accepted outputs")); }
    // Training records price completed runs, not months (also when no option is priced).
    bool perRun() const
    {
        const QString kind = brief_().value(QLatin1String("workload")).toObject().value(QLatin1String("kind")).toString();
        if (kind == QLatin1String("training") || kind == QLatin1String("full-finetune") || kind == QLatin1String("lora")
            || kind == QLatin1String("qlora"))
            return true;
        for (const auto &entry : options())
            if (entry.second.value(QLatin1String("period")).toString() == QLatin1String("run"))
                return true;
        return false;
    }
    QString periodHeader() const { return perRun() ? QStringLiteral("Per run") : QStringLiteral("Per month"); }
    QJsonObject brief_() const { return m_record.value(QLatin1String("brief")).toObject(); }

    // Every priced option: (label, option), the candidates' then the model API's.
    QList<QPair<QString, QJsonObject>> options() const
    {
        QList<QPair<QString, QJsonObject>> list;
        for (const QJsonValue &r : m_candidates) {
            const QString label = candidateLabel(r.toObject().value(QLatin1String("candidate")).toObject());
            for (const QJsonValue &o : r.toObject().value(QLatin1String("cost")).toObject().value(QLatin1String("options")).toArray())
                list.append({label + QStringLiteral(", ") + optionLabel(o.toObject()), o.toObject()});
        }
        const QJsonValue hybrid = cost().value(QLatin1String("hybrid"));
        if (hybrid.isObject())
            list.append({QStringLiteral("hybrid with the model API"), hybrid.toObject()});
        const QJsonValue api = cost().value(QLatin1String("api"));
        if (api.isObject())
            list.append({QStringLiteral("model API (") + api.toObject().value(QLatin1String("provider")).toString() + QLatin1Char(')'),
                         api.toObject()});
        return list;
    }

    QString cover() const
    {
        const bool draft = m_record.value(QLatin1String("draft")).toBool();
        const QJsonObject d = m_record.value(QLatin1String("decision")).toObject();
        QString h = QStringLiteral("<h1>%1: %2</h1>")
                        .arg(draft ? QStringLiteral("Draft record") : QStringLiteral("Decision record"),
                             esc(m_record.value(QLatin1String("scenario")).toString()));
        if (draft)
            h += QStringLiteral("<p style=\"color:#b00000;\"><b>DRAFT: the scenario as it stands; no decision has been recorded "
                                "and nobody has signed.</b></p>");
        Table t{{QStringLiteral("Item"), QStringLiteral("Value")}, {}, {}, {}};
        t.rows.append({QStringLiteral("Recorded"), esc(m_record.value(QLatin1String("created")).toString())});
        if (!draft) {
            t.rows.append({QStringLiteral("Decision"), QStringLiteral("<b>%1</b> (%2)").arg(esc(d.value(QLatin1String("option")).toString()),
                                                                                   esc(d.value(QLatin1String("route")).toString()))});
            if (!d.value(QLatin1String("provider")).toString().isEmpty())
                t.rows.append({QStringLiteral("Priced by"), esc(d.value(QLatin1String("provider")).toString())});
            t.rows.append({QStringLiteral("Cost per ") + esc(unit()), moneyFine(d.value(QLatin1String("cost_per_accepted_output_usd")))});
            t.rows.append({perRun() ? QStringLiteral("Cost of the run") : QStringLiteral("Cost per month"), money(amountOf(d))});
            t.rows.append({QStringLiteral("Decided on"), esc(d.value(QLatin1String("date")).toString())});
            t.rows.append({QStringLiteral("Follows the engine's recommendation"),
                           d.value(QLatin1String("follows_engine_recommendation")).toBool() ? QStringLiteral("yes")
                                                                                            : QStringLiteral("<b>no</b>")});
        }
        const QJsonObject rec = cost().value(QLatin1String("recommendation")).toObject();
        if (!rec.isEmpty()) {
            t.rows.append({QStringLiteral("Engine's recommendation"),
                           esc(m_record.value(QLatin1String("decision")).toObject().value(QLatin1String("engine_recommendation"))
                                   .toObject().value(QLatin1String("headline")).toString())
                               + (draft ? esc(rec.value(QLatin1String("route")).toString() + QStringLiteral(", ")
                                              + moneyFine(rec.value(QLatin1String("cost_per_accepted_output_usd")))
                                              + QStringLiteral(" per ") + unit() + QStringLiteral(", ") + money(rec.value(QLatin1String("usd_per_month")))
                                              + QStringLiteral(" a month"))
                                        : QString())});
        } else {
            t.rows.append({QStringLiteral("Engine's recommendation"), QStringLiteral("none (the brief is incomplete or nothing fits)")});
        }
        t.rows.append({QStringLiteral("Prices aged against"), esc(m_record.value(QLatin1String("today")).toString())});
        t.rows.append({QStringLiteral("Engine version"), esc(m_record.value(QLatin1String("engine_version")).toString())});
        t.rows.append({QStringLiteral("Record SHA-256"), QStringLiteral("<tt>%1</tt>").arg(esc(m_record.value(QLatin1String("sha256")).toString()))});
        if (m_record.value(QLatin1String("supersedes")).isDouble())
            t.rows.append({QStringLiteral("Supersedes record"), QString::number(m_record.value(QLatin1String("supersedes")).toInt())});
        h += tableHtml(t);
        if (!draft) {
            h += QStringLiteral("<h3>Rationale</h3>") + para(d.value(QLatin1String("rationale")).toString());
        }
        h += QStringLiteral("<h3>The engine's reasons</h3><ul>");
        for (const QJsonValue &r : rec.value(QLatin1String("reasons")).toArray())
            h += QStringLiteral("<li>") + esc(r.toString()) + QStringLiteral("</li>");
        h += QStringLiteral("</ul>");
        const QJsonObject ranking = cost().value(QLatin1String("ranking")).toObject();
        if (!ranking.isEmpty()) {
            h += QStringLiteral("<h3>How robust the ranking is</h3>");
            h += para(QStringLiteral("First: %1; second: %2; the second costs %3 more.")
                          .arg(ranking.value(QLatin1String("first")).toString(), ranking.value(QLatin1String("second")).toString(),
                               percent(ranking.value(QLatin1String("gap_fraction")))));
            Table flips{{QStringLiteral("Assumption"), QStringLiteral("Now"), QStringLiteral("The order flips at")}, {}, {}, {1, 2}};
            for (const QJsonValue &f : ranking.value(QLatin1String("flips")).toArray())
                flips.rows.append({esc(f.toObject().value(QLatin1String("assumption")).toString()),
                                   esc(number(f.toObject().value(QLatin1String("current")))),
                                   esc(number(f.toObject().value(QLatin1String("flips_at"))))});
            if (!flips.rows.isEmpty())
                h += tableHtml(flips);
        }
        return h;
    }

    QString brief() const
    {
        QString h = heading(QStringLiteral("The brief"));
        h += para(QStringLiteral("The workload as the scenario states it (every field the brief gives; the full JSON is in the appendix)."));
        QList<QPair<QString, QString>> fields;
        QJsonObject b = brief_();
        b.remove(QLatin1String("format"));
        b.remove(QLatin1String("version"));
        b.remove(QLatin1String("candidates"));
        flatten(b, QString(), fields);
        Table t{{QStringLiteral("Field"), QStringLiteral("Value")}, {}, {}, {}, {40, 60}};
        for (const auto &[k, v] : fields)
            t.rows.append({esc(k), esc(v)});
        h += tableHtml(t);
        const QJsonObject completeness = m_results.value(QLatin1String("brief_completeness")).toObject();
        if (!completeness.isEmpty())
            h += para(QStringLiteral("Brief completeness: %1.").arg(percent(completeness.value(QLatin1String("fraction")))));
        return h;
    }

    QString candidates() const
    {
        QString h = heading(QStringLiteral("Candidates and their specifications"));
        const QJsonObject gpus = m_record.value(QLatin1String("catalog")).toObject().value(QLatin1String("gpus")).toObject();
        Table t{{QStringLiteral("#"), QStringLiteral("Candidate"), QStringLiteral("GPU"), QStringLiteral("Memory"),
                 QStringLiteral("Bandwidth"), QStringLiteral("BF16 / FP8 dense"), QStringLiteral("Scale-up"),
                 QStringLiteral("Step model")},
                {}, {}, {0}};
        for (int i = 0; i < m_candidates.size(); ++i) {
            const QJsonObject r = m_candidates[i].toObject();
            const QJsonObject c = r.value(QLatin1String("candidate")).toObject();
            const QJsonObject g = gpus.value(c.value(QLatin1String("gpu")).toString()).toObject();
            const QJsonObject flops = g.value(QLatin1String("dense_flops_per_s")).toObject();
            const QJsonObject up = g.value(QLatin1String("scale_up")).toObject();
            const auto tflops = [](const QJsonValue &v) { return v.isDouble() ? QString::number(v.toDouble() / 1e12, 'f', 0) : QStringLiteral("-"); };
            t.rows.append({QString::number(i + 1), esc(candidateLabel(c)), esc(g.value(QLatin1String("name")).toString()),
                           esc(gib(g.value(QLatin1String("memory_bytes")))),
                           esc(g.value(QLatin1String("memory_bandwidth_bytes_per_s")).isDouble()
                                   ? QString::number(g.value(QLatin1String("memory_bandwidth_bytes_per_s")).toDouble() / 1e12, 'f', 2)
                                       + QStringLiteral(" TB/s")
                                   : QStringLiteral("-")),
                           esc(tflops(flops.value(QLatin1String("bf16"))) + QStringLiteral(" / ") + tflops(flops.value(QLatin1String("fp8")))
                               + QStringLiteral(" TFLOP/s")),
                           esc(QStringLiteral("%1, %2 GB/s, %3 GPUs")
                                   .arg(up.value(QLatin1String("kind")).toString())
                                   .arg(up.value(QLatin1String("bandwidth_bytes_per_s")).toDouble() / 1e9, 0, 'f', 0)
                                   .arg(up.value(QLatin1String("domain_gpus")).toInt())),
                           esc(r.value(QLatin1String("provenance")).toObject().value(QLatin1String("step_model")).toString())});
        }
        h += tableHtml(t);
        // The sources behind every figure, once each.
        std::map<QString, QJsonObject> sources;
        for (auto it = gpus.begin(); it != gpus.end(); ++it) {
            const QJsonObject s = it.value().toObject().value(QLatin1String("sources")).toObject();
            for (auto f = s.begin(); f != s.end(); ++f)
                if (f.value().isObject())
                    sources[f.value().toObject().value(QLatin1String("id")).toString()] = f.value().toObject();
        }
        h += QStringLiteral("<h3>Sources of the specifications</h3>");
        Table st{{QStringLiteral("Source"), QStringLiteral("Title"), QStringLiteral("Address"), QStringLiteral("Read")}, {}, {}, {}};
        for (const auto &[id, s] : sources)
            st.rows.append({esc(id), esc(s.value(QLatin1String("title")).toString()), esc(s.value(QLatin1String("url")).toString()),
                            esc(s.value(QLatin1String("read")).toString())});
        h += tableHtml(st);
        return h;
    }

    QString chartsSection(std::vector<ChartSpec> &charts) const
    {
        QString h = heading(QStringLiteral("Charts"));
        // Does it fit? Memory per GPU by component, the GPU's capacity marked.
        ChartSpec fit;
        fit.title = QStringLiteral("Does it fit? Memory per GPU by component");
        fit.xLabel = QStringLiteral("GiB per GPU");
        fit.stackNames = {QStringLiteral("weights"), QStringLiteral("KV cache"), QStringLiteral("activations"),
                          QStringLiteral("gradients"), QStringLiteral("optimizer states"), QStringLiteral("runtime")};
        fit.markerName = QStringLiteral("GPU memory");
        for (const QJsonValue &v : m_candidates) {
            const QJsonObject r = v.toObject();
            const QJsonObject f = r.value(QLatin1String("fit")).toObject();
            if (f.isEmpty())
                continue;
            const QJsonObject b = f.value(QLatin1String("breakdown_bytes")).toObject();
            ChartBar bar;
            bar.label = candidateLabel(r.value(QLatin1String("candidate")).toObject());
            for (const char *k : {"weights", "kv_cache", "activations", "gradients", "optimizer_states", "runtime_overhead"})
                bar.stack.append(b.value(QLatin1String(k)).toDouble() / (1024.0 * 1024 * 1024));
            bar.marker = f.value(QLatin1String("gpu_capacity_bytes")).toDouble() / (1024.0 * 1024 * 1024);
            fit.bars.push_back(bar);
        }
        if (!fit.bars.empty()) {
            charts.push_back(fit);
            h += chartPlaceholder(int(charts.size()) - 1);
        }

        // How fast under load? p99 TTFT and TPOT against the request rate, the SLO dashed.
        const QJsonObject slo = brief_().value(QLatin1String("slo")).toObject();
        for (const auto &[key, title, sloKey] :
             {std::tuple{"ttft_p99_s", "How fast under load? Time to first token, p99", "ttft_p99_s"},
              std::tuple{"tpot_p99_s", "How fast under load? Time per output token, p99", "tpot_p99_s"}}) {
            ChartSpec c;
            c.kind = ChartSpec::Kind::Lines;
            c.title = QString::fromLatin1(title);
            c.xLabel = QStringLiteral("requests per second (the candidate's replicas together)");
            c.yLabel = QStringLiteral("seconds");
            c.logY = true;
            for (int i = 0; i < m_candidates.size(); ++i) {
                const QJsonObject r = m_candidates[i].toObject();
                ChartSeries s;
                s.name = candidateLabel(r.value(QLatin1String("candidate")).toObject());
                s.colour = i;
                for (const QJsonValue &p : r.value(QLatin1String("performance")).toObject().value(QLatin1String("load_curve")).toArray())
                    s.points.append({p.toObject().value(QLatin1String("request_rate_per_s")).toDouble(),
                                     p.toObject().value(QLatin1String(key)).toDouble()});
                if (!s.points.isEmpty())
                    c.series.push_back(s);
            }
            if (slo.value(QLatin1String(sloKey)).isDouble()) {
                c.threshold = slo.value(QLatin1String(sloKey)).toDouble();
                c.thresholdName = QStringLiteral("the brief's target");
            }
            if (!c.series.empty()) {
                charts.push_back(c);
                h += chartPlaceholder(int(charts.size()) - 1);
            }
        }

        // What does each accepted output (image, run, ...) cost? Each option's cost by line.
        ChartSpec costs;
        costs.title = QStringLiteral("What does each %1 cost? By line item").arg(unit());
        costs.xLabel = QStringLiteral("USD per %1").arg(unit());
        QStringList lineNames;
        const QList<QPair<QString, QJsonObject>> all = options();
        for (const auto &[label, o] : all)
            for (const QJsonValue &l : o.value(QLatin1String("lines")).toArray())
                if (!lineNames.contains(l.toObject().value(QLatin1String("name")).toString())) {
                    lineNames << l.toObject().value(QLatin1String("name")).toString();
                    costs.stackNames << lineTitle(l.toObject());
                }
        for (const auto &[label, o] : all) {
            const double accepted = o.contains(QLatin1String("accepted_runs_per_run"))
                ? o.value(QLatin1String("accepted_runs_per_run")).toDouble()
                : o.value(QLatin1String("accepted_outputs_per_month")).toDouble();
            if (accepted <= 0)
                continue;
            ChartBar bar;
            bar.label = label;
            bar.stack.resize(lineNames.size());
            for (const QJsonValue &l : o.value(QLatin1String("lines")).toArray())
                bar.stack[lineNames.indexOf(l.toObject().value(QLatin1String("name")).toString())] +=
                    amountOf(l.toObject()).toDouble() / accepted;
            costs.bars.push_back(bar);
        }
        if (!costs.bars.empty()) {
            charts.push_back(costs);
            h += chartPlaceholder(int(charts.size()) - 1);
        }

        // When does self-hosting pay? Monthly cost against monthly volume (both logarithmic).
        ChartSpec volume;
        volume.kind = ChartSpec::Kind::Lines;
        volume.title = QStringLiteral("When does each option pay? Monthly cost against volume");
        volume.xLabel = QStringLiteral("requests per month");
        volume.yLabel = QStringLiteral("USD per month");
        volume.logX = volume.logY = true;
        int colour = 0;
        for (const auto &[label, o] : all) {
            ChartSeries s;
            s.name = label;
            s.colour = colour++;
            s.dashed = o.value(QLatin1String("route")).toString() == QLatin1String("api");
            for (const QJsonValue &p : o.value(QLatin1String("monthly_cost_by_volume")).toArray())
                s.points.append({p.toArray().at(0).toDouble(), p.toArray().at(1).toDouble()});
            if (!s.points.isEmpty())
                volume.series.push_back(s);
        }
        volume.note = QStringLiteral("Where a line crosses the model API's (dashed), self-hosting that option starts to cost less.");
        if (!volume.series.empty()) {
            charts.push_back(volume);
            h += chartPlaceholder(int(charts.size()) - 1);
        }
        return h;
    }

    QString normalization() const
    {
        QString h = heading(QStringLiteral("Normalization table"));
        h += para(QStringLiteral("One row per candidate and pricing option, then the model API: fit, performance at the brief's load, "
                                 "and the all-in cost per ") + esc(unit()) + QStringLiteral(". The recommended option is in bold."));
        // A training run's columns: its speed, time and interruptions instead of serving latencies.
        const bool run = perRun();
        // A serving option's SLO verdict stands beside its latencies (the window's "SLO met").
        Table t = run ? Table{{QStringLiteral("Option"), QStringLiteral("Fits, headroom"), QStringLiteral("Tokens/s"),
                               QStringLiteral("Time to train"), QStringLiteral("Expected"), QStringLiteral("Interruptions"),
                               QStringLiteral("GPUs"), QStringLiteral("$/GPU-hour"), periodHeader(), QStringLiteral("Per ") + esc(unit())},
                              {}, {}, {2, 3, 4, 5, 6, 7, 8, 9}, {20, 11, 8, 9, 8, 7, 6, 8, 12, 11}}
                      : Table{{QStringLiteral("Option"), QStringLiteral("Fits, headroom"), QStringLiteral("Output tok/s"),
                               QStringLiteral("TTFT p99"), QStringLiteral("TPOT p99"), QStringLiteral("SLO met"),
                               QStringLiteral("Max req/s in SLO"), QStringLiteral("GPUs"), QStringLiteral("$/GPU-hour"), periodHeader(),
                               QStringLiteral("Per ") + esc(unit())},
                              {}, {}, {2, 3, 4, 6, 7, 8, 9, 10}, {16, 11, 8, 9, 7, 5, 7, 6, 7, 12, 12}};
        const QJsonObject rec = cost().value(QLatin1String("recommendation")).toObject();
        for (int i = 0; i < m_candidates.size(); ++i) {
            const QJsonObject r = m_candidates[i].toObject();
            const QJsonObject f = r.value(QLatin1String("fit")).toObject();
            const QJsonObject p = r.value(QLatin1String("performance")).toObject();
            const QString label = candidateLabel(r.value(QLatin1String("candidate")).toObject());
            const QString fits = f.isEmpty() ? QStringLiteral("-")
                                             : (f.value(QLatin1String("fits")).toBool() ? QStringLiteral("yes (") : QStringLiteral("no ("))
                    + percent(f.value(QLatin1String("headroom_fraction"))) + QLatin1Char(')');
            const QJsonArray opts = r.value(QLatin1String("cost")).toObject().value(QLatin1String("options")).toArray();
            const auto row = [&](const QJsonObject &o) {
                const bool recommended = rec.value(QLatin1String("candidate_index")).toInt(-1) == i
                    && rec.value(QLatin1String("term")).toString() == o.value(QLatin1String("term")).toString()
                    && rec.value(QLatin1String("route")).toString() != QLatin1String("hybrid");
                const QJsonObject tr = p.value(QLatin1String("training")).toObject();
                t.rows.append({esc(label + (o.isEmpty() ? QString() : QStringLiteral(", ") + optionLabel(o))), esc(fits),
                               esc(number(run ? tr.value(QLatin1String("tokens_per_s")) : p.value(QLatin1String("output_tokens_per_s")))),
                               esc(run ? duration(tr.value(QLatin1String("time_to_train_s")))
                                       : milliseconds(p.value(QLatin1String("ttft_s")).toObject().value(QLatin1String("p99")))),
                               esc(run ? duration(tr.value(QLatin1String("expected_time_to_train_s")))
                                       : milliseconds(p.value(QLatin1String("tpot_s")).toObject().value(QLatin1String("p99")))),
                               esc(run ? number(tr.value(QLatin1String("expected_interruptions")))
                                       : rate(p.value(QLatin1String("max_request_rate_within_slo_per_s")))),
                               esc(o.isEmpty() ? QStringLiteral("-") : QString::number(o.value(QLatin1String("gpus")).toInt())),
                               esc(o.isEmpty() ? QStringLiteral("-") : money(o.value(QLatin1String("usd_per_gpu_hour")))),
                               esc(o.isEmpty() ? QStringLiteral("-") : money(amountOf(o))),
                               esc(o.isEmpty() ? QStringLiteral("-")
                                   : run       ? money(o.value(QLatin1String("cost_per_accepted_output_usd")))
                                               : moneyFine(o.value(QLatin1String("cost_per_accepted_output_usd"))))});
                if (!run)
                    t.rows.last().insert(5, str(p.value(QLatin1String("slo_met"))));  // yes, no or -
                t.emphasised.append(recommended);
            };
            if (opts.isEmpty())
                row({});
            for (const QJsonValue &o : opts)
                row(o.toObject());
        }
        const QJsonValue api = cost().value(QLatin1String("api"));
        if (api.isObject()) {
            const QJsonObject o = api.toObject();
            QStringList cells(t.headers.size() - 2, QStringLiteral("-"));
            cells.front() = QStringLiteral("model API");
            t.rows.append(cells + QStringList{esc(money(o.value(QLatin1String("usd_per_month")))),
                                              esc(moneyFine(o.value(QLatin1String("cost_per_accepted_output_usd"))))});
            t.emphasised.append(rec.value(QLatin1String("route")).toString() == QLatin1String("api"));
        }
        h += tableHtml(t);
        return h;
    }

    // How far each candidate's figures can be trusted: the P10-P90 bands of its headline figures
    // and of its options' costs (results[].uncertainty), with where they come from.
    QString bands() const
    {
        struct Figure
        {
            const char *path, *name;
            QString (*format)(const QJsonValue &);
        };
        static const Figure kFigures[] = {
            {"performance.output_tokens_per_s", "Output tokens/s", [](const QJsonValue &v) { return number(v); }},
            {"performance.training.tokens_per_s", "Training tokens/s", [](const QJsonValue &v) { return number(v); }},
            {"performance.media.outputs_per_hour", "Outputs per hour", [](const QJsonValue &v) { return number(v); }},
            {"performance.ttft_s.p99", "TTFT p99", milliseconds},
            {"performance.tpot_s.p99", "TPOT p99", milliseconds},
            {"performance.e2e_s.p99", "End to end p99", milliseconds},
            {"performance.max_request_rate_within_slo_per_s", "Max requests/s in SLO", [](const QJsonValue &v) { return number(v); }},
        };
        Table t{{QStringLiteral("Candidate"), QStringLiteral("Figure"), QStringLiteral("Estimate"), QStringLiteral("P10"),
                 QStringLiteral("P50"), QStringLiteral("P90"), QStringLiteral("Where the band comes from")},
                {}, {}, {2, 3, 4, 5}, {16, 15, 9, 9, 9, 9, 33}};
        // The figure the band is around, as every other table gives it (a dotted path, options by index).
        const auto estimate = [](const QJsonObject &r, const QString &path) {
            QJsonValue v = r;
            for (const QString &key : path.split(u'.'))
                v = v.isArray() ? v.toArray().at(key.toInt()) : v.toObject().value(key);
            return v;
        };
        for (const QJsonValue &value : m_candidates) {
            const QJsonObject r = value.toObject();
            const QJsonObject u = r.value(QLatin1String("uncertainty")).toObject();
            const QString label = candidateLabel(r.value(QLatin1String("candidate")).toObject());
            const auto add = [&](const QString &path, const QString &name, QString (*format)(const QJsonValue &)) {
                const QJsonObject b = u.value(path).toObject();
                if (b.isEmpty())
                    return;
                t.rows.append({esc(label), esc(name), esc(format(estimate(r, path))), esc(format(b.value(QLatin1String("p10")))),
                               esc(format(b.value(QLatin1String("p50")))),
                               esc(format(b.value(QLatin1String("p90")))), esc(b.value(QLatin1String("basis")).toString())});
                t.emphasised.append(false);
            };
            for (const Figure &f : kFigures)
                add(QString::fromLatin1(f.path), QString::fromLatin1(f.name), f.format);
            const QJsonArray opts = r.value(QLatin1String("cost")).toObject().value(QLatin1String("options")).toArray();
            for (int i = 0; i < opts.size(); ++i)
                add(QStringLiteral("cost.options.%1.cost_per_accepted_output_usd").arg(i),
                    QStringLiteral("Per %1, ").arg(unit()) + optionLabel(opts[i].toObject()), moneyFine);
        }
        if (t.rows.isEmpty())
            return {};
        QString h = heading(QStringLiteral("How far the figures can be trusted"), false);
        h += para(QStringLiteral("Each figure's P10-P90 band: where published measurements fell around the model's predictions "
                                 "when the calibration had seen none of the case's GPU family, model size, serving stack or source. "
                                 "The estimate is the model's figure, the one every other table gives; P50 is that estimate moved by "
                                 "the median miss, so the two differ a little. The band says how far the truth may lie."));
        h += tableHtml(t);
        return h;
    }

    QString costLines() const
    {
        QString h = heading(QStringLiteral("Cost lines per option"));
        h += para(perRun() ? QStringLiteral("Each option's cost of one completed run, line by line with how it was worked out; the "
                                            "total is the sum of the lines shown.")
                           : QStringLiteral("Each option's monthly bill, line by line with how it was worked out; the total is the "
                                            "sum of the lines shown."));
        for (const auto &[label, o] : options()) {
            h += QStringLiteral("<h3>%1</h3>").arg(esc(label));
            const bool run = o.value(QLatin1String("period")).toString() == QLatin1String("run");
            Table t{{QStringLiteral("Line"), run ? QStringLiteral("Per run") : QStringLiteral("Per month"), QStringLiteral("How it was worked out")},
                    {}, {}, {1}, {18, 14, 68}};
            for (const QJsonValue &l : o.value(QLatin1String("lines")).toArray()) {
                t.rows.append({esc(lineTitle(l.toObject())), esc(money(amountOf(l.toObject()))),
                               esc(l.toObject().value(QLatin1String("basis")).toString())});
                t.emphasised.append(false);
            }
            t.rows.append({QStringLiteral("Total"), esc(money(amountOf(o))),
                           run ? esc(QStringLiteral("%1 per accepted run (the share of runs whose model passes evaluation: %2)")
                                         .arg(money(o.value(QLatin1String("cost_per_accepted_output_usd"))),
                                              number(o.value(QLatin1String("accepted_runs_per_run")))))
                               : esc(QStringLiteral("%1 %2 a month: %3 each")
                                         .arg(number(o.value(QLatin1String("accepted_outputs_per_month"))), units(),
                                              moneyFine(o.value(QLatin1String("cost_per_accepted_output_usd")))))});
            t.emphasised.append(true);
            h += tableHtml(t);
        }
        return h;
    }

    QString breakEvens() const
    {
        QString h = heading(QStringLiteral("Break-even points"), false);
        Table t{{QStringLiteral("Option"), QStringLiteral("Cheaper than the API from (requests/month)"),
                 QStringLiteral("Commitment pays from utilization"), QStringLiteral("Purchase pays back in (months)")},
                {}, {}, {1, 2, 3}};
        for (const auto &[label, o] : options()) {
            if (o.value(QLatin1String("route")).toString() == QLatin1String("api"))
                continue;
            // A commitment dearer than on-demand at full use never pays (it once read "261.0%").
            const QJsonValue pays = o.value(QLatin1String("break_even_utilization_vs_on_demand"));
            t.rows.append({esc(label), esc(number(o.value(QLatin1String("break_even_requests_per_month_vs_api")))),
                           esc(pays.isDouble() && pays.toDouble() > 1
                                   ? QStringLiteral("never: dearer than on-demand at full use (%1)").arg(percent(pays))
                                   : percent(pays)),
                           esc(number(o.value(QLatin1String("payback_months"))))});
        }
        h += tableHtml(t);
        return h;
    }

    QString assumptions() const
    {
        QString h = heading(QStringLiteral("Assumptions"));
        h += para(QStringLiteral("Every default the figures rest on, whether the brief set it, and why it has its value; then the "
                                 "step model's efficiency factors with their source (calibrated from measured cases, or a "
                                 "literature prior)."));
        Table t{{QStringLiteral("Assumption"), QStringLiteral("Value"), QStringLiteral("Unit"), QStringLiteral("Origin"),
                 QStringLiteral("Reason and source")},
                {}, {}, {1}, {22, 11, 8, 11, 48}};
        for (const QJsonValue &a : m_results.value(QLatin1String("assumptions")).toArray()) {
            const QJsonObject o = a.toObject();
            t.rows.append({esc(o.value(QLatin1String("name")).toString()), esc(number(o.value(QLatin1String("value")), 4)),
                           esc(o.value(QLatin1String("unit")).toString()), esc(o.value(QLatin1String("origin")).toString()),
                           esc(o.value(QLatin1String("reason")).toString())});
            t.emphasised.append(o.value(QLatin1String("origin")).toString() == QLatin1String("brief"));
        }
        h += tableHtml(t);
        return h;
    }

    QString evidence() const
    {
        QString h = heading(QStringLiteral("Calibration and measured evidence"));
        const QJsonArray calibrations = m_record.value(QLatin1String("calibration")).toArray();
        const QJsonArray runs = m_record.value(QLatin1String("evidence")).toObject().value(QLatin1String("runs")).toArray();
        if (calibrations.isEmpty() && runs.isEmpty())
            return h + para(QStringLiteral("No benchmark runs were imported for this scenario: every figure rests on the shipped "
                                           "calibration (see the efficiency factors among the assumptions)."));
        Table c{{QStringLiteral("GPU"), QStringLiteral("Serving stack"), QStringLiteral("Calibration"), QStringLiteral("Warnings")}, {}, {}, {}};
        for (const QJsonValue &v : calibrations) {
            QStringList warnings;
            for (const QJsonValue &w : v.toObject().value(QLatin1String("warnings")).toArray())
                warnings << w.toObject().value(QLatin1String("message")).toString();
            c.rows.append({esc(v.toObject().value(QLatin1String("gpu")).toString()),
                           esc(v.toObject().value(QLatin1String("serving_stack")).toString()),
                           esc(v.toObject().value(QLatin1String("provenance")).toString()), esc(warnings.join(QStringLiteral("; ")))});
        }
        if (!c.rows.isEmpty())
            h += tableHtml(c);
        Table r{{QStringLiteral("Run"), QStringLiteral("Tool"), QStringLiteral("File (SHA-256)"), QStringLiteral("Candidate"),
                 QStringLiteral("Load"), QStringLiteral("Date")},
                {}, {}, {}};
        for (const QJsonValue &v : runs) {
            const QJsonObject o = v.toObject();
            const QJsonObject f = o.value(QLatin1String("file")).toObject();
            r.rows.append({QString::number(o.value(QLatin1String("id")).toInt()), esc(o.value(QLatin1String("tool")).toString()),
                           esc(f.value(QLatin1String("name")).toString() + QStringLiteral(" (")
                               + f.value(QLatin1String("sha256")).toString().left(16) + QStringLiteral("...)")),
                           QString::number(o.value(QLatin1String("candidate")).toInt()), esc(loadText(o.value(QLatin1String("load")).toObject())),
                           esc(o.value(QLatin1String("date")).toString())});
        }
        h += QStringLiteral("<h3>Imported runs</h3>") + tableHtml(r);
        // Measured against predicted, before and after the calibration.
        const QJsonObject comparison = m_record.value(QLatin1String("evidence_comparison")).toObject();
        Table m{{QStringLiteral("Run"), QStringLiteral("Metric"), QStringLiteral("Measured"), QStringLiteral("Predicted"),
                 QStringLiteral("Calibrated"), QStringLiteral("Left out")},
                {}, {}, {2, 3, 4, 5}};
        for (const QJsonValue &v : comparison.value(QLatin1String("runs")).toArray())
            for (const QJsonValue &x : v.toObject().value(QLatin1String("metrics")).toArray()) {
                const QJsonObject o = x.toObject();
                // Latencies in milliseconds, rates per second.
                const bool rate = o.value(QLatin1String("metric")).toString().endsWith(QLatin1String("_per_s"));
                const auto figure = [rate](const QJsonValue &f) { return rate ? number(f, 4) + QStringLiteral(" /s") : milliseconds(f); };
                m.rows.append({QString::number(v.toObject().value(QLatin1String("run")).toInt()),
                               esc(o.value(QLatin1String("metric")).toString() + QLatin1Char(' ') + o.value(QLatin1String("stat")).toString()),
                               esc(figure(o.value(QLatin1String("measured")))), esc(figure(o.value(QLatin1String("predicted")))),
                               esc(figure(o.value(QLatin1String("calibrated")))), esc(figure(o.value(QLatin1String("left_out"))))});
            }
        if (!m.rows.isEmpty())
            h += QStringLiteral("<h3>Measured against predicted</h3>") + tableHtml(m);
        return h;
    }

    QString checklist() const
    {
        QString h = heading(QStringLiteral("Vendor checklist"));
        const QJsonObject status = m_record.value(QLatin1String("checklist_status")).toObject();
        if (status.isEmpty())
            return h + para(QStringLiteral("The scenario was recorded without a project checklist."));
        h += para(QStringLiteral("Each vendor's answers against what the checklist requires at this decision's commitment (%1): "
                                 "missing items are unanswered or unknown; unbacked ones are answered without the evidence the "
                                 "commitment needs.")
                      .arg(status.value(QLatin1String("commitment")).toString()));
        Table t{{QStringLiteral("Vendor"), QStringLiteral("Answered"), QStringLiteral("Required and missing"),
                 QStringLiteral("Answered without evidence")},
                {}, {}, {1}};
        for (const QJsonValue &v : status.value(QLatin1String("vendors")).toArray()) {
            const QJsonObject o = v.toObject();
            const auto list = [](const QJsonArray &items) {
                QStringList out;
                for (const QJsonValue &i : items)
                    out << i.toObject().value(QLatin1String("id")).toString() + QStringLiteral(": ")
                            + i.toObject().value(QLatin1String("question")).toString();
                return out.isEmpty() ? QStringLiteral("none") : out.join(QStringLiteral("<br/>"));
            };
            t.rows.append({esc(o.value(QLatin1String("name")).toString()),
                           QStringLiteral("%1 of %2").arg(o.value(QLatin1String("answered")).toInt()).arg(o.value(QLatin1String("items")).toInt()),
                           list(o.value(QLatin1String("missing")).toArray()), list(o.value(QLatin1String("unbacked")).toArray())});
        }
        if (t.rows.isEmpty())
            return h + para(QStringLiteral("No vendor has been added to the checklist."));
        // The item lists are escaped per item; the cells join them with line breaks.
        for (QStringList &row : t.rows)
            for (int c = 2; c < row.size(); ++c)
                row[c] = row[c].toHtmlEscaped().replace(QStringLiteral("&lt;br/&gt;"), QStringLiteral("<br/>"));
        return h + tableHtml(t);
    }

    QString mistakes() const
    {
        QString h = heading(QStringLiteral("Warnings and the method's common mistakes"), false);
        Table t{{QStringLiteral("Where"), QStringLiteral("Warning")}, {}, {}, {}};
        for (const QJsonValue &w : m_results.value(QLatin1String("warnings")).toArray())
            t.rows.append({QStringLiteral("all options"), esc(w.toObject().value(QLatin1String("message")).toString())});
        for (const QJsonValue &w : cost().value(QLatin1String("warnings")).toArray())
            t.rows.append({QStringLiteral("recommendation"), esc(w.toObject().value(QLatin1String("message")).toString())});
        for (const QJsonValue &v : m_candidates)
            for (const QJsonValue &w : v.toObject().value(QLatin1String("warnings")).toArray())
                t.rows.append({esc(candidateLabel(v.toObject().value(QLatin1String("candidate")).toObject())),
                               esc(w.toObject().value(QLatin1String("message")).toString())});
        return h + (t.rows.isEmpty() ? para(QStringLiteral("None.")) : tableHtml(t));
    }

    QString plan() const
    {
        QString h = heading(QStringLiteral("Benchmark plan: acceptance criteria"));
        h += para(QStringLiteral("What a benchmark of each candidate must show before the commitment, with the engine's prediction "
                                 "beside each criterion (the full plan with commands: gpuwb plan)."));
        const QJsonObject d = m_record.value(QLatin1String("decision")).toObject();
        const QJsonValue chosen = d.value(QLatin1String("candidate_index"));
        for (const QJsonValue &v : m_record.value(QLatin1String("plan")).toObject().value(QLatin1String("candidates")).toArray()) {
            const QJsonObject c = v.toObject();
            if (chosen.isDouble() && c.value(QLatin1String("candidate_index")).toInt() != chosen.toInt())
                continue;
            h += QStringLiteral("<h3>%1</h3>").arg(esc(c.value(QLatin1String("label")).toString()));
            Table t{{QStringLiteral("Phase"), QStringLiteral("Criterion"), QStringLiteral("Predicted to pass")}, {}, {}, {}};
            for (const QJsonValue &ph : c.value(QLatin1String("phases")).toArray())
                for (const QJsonValue &s : ph.toObject().value(QLatin1String("steps")).toArray()) {
                    const QJsonValue pass = s.toObject().value(QLatin1String("predicted_to_pass"));
                    t.rows.append({esc(ph.toObject().value(QLatin1String("title")).toString()),
                                   esc(s.toObject().value(QLatin1String("criterion")).toString()),
                                   pass.isBool() ? (pass.toBool() ? QStringLiteral("yes") : QStringLiteral("<b>no</b>")) : QStringLiteral("-")});
                }
            h += tableHtml(t);
        }
        return h;
    }

    QString signOff() const
    {
        QString h = heading(QStringLiteral("Sign-off"));
        const QJsonObject d = m_record.value(QLatin1String("decision")).toObject();
        Table t{{QStringLiteral("Name and role"), QStringLiteral("Signature"), QStringLiteral("Date")}, {}, {}, {}};
        for (const QJsonValue &n : d.value(QLatin1String("sign_off")).toArray())
            t.rows.append({esc(n.toString()), QStringLiteral("<br/><br/>"), QString()});
        if (t.rows.isEmpty())
            t.rows.append({QStringLiteral("(draft: nobody signs a draft)"), QStringLiteral("<br/><br/>"), QString()});
        h += tableHtml(t);
        h += para(QStringLiteral("This record's content hashes to SHA-256 %1 (gpuwb record list checks it). It was computed by GPU "
                                 "Workbench %2 with prices aged against %3.")
                      .arg(m_record.value(QLatin1String("sha256")).toString(), m_record.value(QLatin1String("engine_version")).toString(),
                           m_record.value(QLatin1String("today")).toString()));
        return h;
    }

    QString appendix() const
    {
        // Qt 6.4's PDF writer cannot attach files; the brief is printed whole instead.
        return heading(QStringLiteral("Appendix: the brief as JSON"))
            + QStringLiteral("<pre style=\"font-size:7pt;\">")
            + esc(QString::fromUtf8(QJsonDocument(brief_()).toJson(QJsonDocument::Indented))) + QStringLiteral("</pre>");
    }
};

} // namespace

QString writeRecordPdf(const QByteArray &recordJson, const QString &path, const RecordPdfOptions &options)
{
    QJsonParseError error;
    const QJsonDocument json = QJsonDocument::fromJson(recordJson, &error);
    if (!json.isObject() || json.object().value(QLatin1String("format")).toString() != QLatin1String("gpu-workbench-decision-record"))
        return path + QStringLiteral(": not written: the input is not a decision record");
    const QJsonObject record = json.object();

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return path + QStringLiteral(": cannot be written: ") + file.errorString();
    {
        QPdfWriter pdf(&file);
        // A draft says so on every page, in its title and its heading: it is no decision.
        const bool draft = record.value(QLatin1String("draft")).toBool();
        const QString kind = draft ? QStringLiteral("DRAFT, not a decision record") : QStringLiteral("Decision record");
        pdf.setTitle(kind + QStringLiteral(": ") + record.value(QLatin1String("scenario")).toString().simplified());
        pdf.setCreator(QStringLiteral("GPU Workbench ") + record.value(QLatin1String("engine_version")).toString());
        pdf.setPageSize(QPageSize(options.page));
        pdf.setPageMargins(QMarginsF(16, 16, 16, 16), QPageLayout::Millimeter);
        pdf.setResolution(300);
        if (options.pdfA)
            pdf.setPdfVersion(QPagedPaintDevice::PdfVersion_A1b);

        QTextDocument doc;
        doc.documentLayout()->setPaintDevice(&pdf);
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPointSizeF(8.5);
        // No ligatures: "ff" and "fi" stay letters that a search in the PDF finds.
        font.setStyleStrategy(QFont::PreferNoShaping);
        doc.setDefaultFont(font);
        doc.setDefaultStyleSheet(QStringLiteral("h1 { font-size: 16pt; } h2 { font-size: 13pt; } h3 { font-size: 10pt; } "
                                                "th { font-size: 8pt; } td { font-size: 8pt; }"));
        const QRectF page = pdf.pageLayout().paintRectPixels(pdf.resolution());
        const qreal footer = pdf.resolution() * 0.35;   // about 9 mm
        const QSizeF body(page.width(), page.height() - footer);

        auto *charts = new ChartObject;
        charts->setParent(&doc);
        doc.documentLayout()->registerHandler(ChartObject::chartObjectType(), charts);
        Report report(record);
        doc.setHtml(report.html(charts->charts()));
        // Each placeholder paragraph becomes its chart: as wide as the page, its height by kind.
        for (std::size_t i = 0; i < charts->charts().size(); ++i) {
            QTextCursor c = doc.find(chartMarker(int(i)));
            if (c.isNull())
                continue;
            QTextCharFormat f;
            f.setObjectType(ChartObject::chartObjectType());
            f.setProperty(ChartObject::kIndexProperty, int(i));
            const ChartSpec &spec = charts->charts()[i];
            const qreal height = spec.kind == ChartSpec::Kind::Bars
                ? std::min(body.height() * 0.55, pdf.resolution() * (1.4 + 0.28 * double(spec.bars.size())))
                : body.height() * 0.36;
            f.setProperty(ChartObject::kWidthProperty, body.width() * 0.98);
            f.setProperty(ChartObject::kHeightProperty, height);
            c.insertText(QString(QChar::ObjectReplacementCharacter), f);
        }

        // Laid out for the page only now, whole: a layout made before the charts went in is
        // brought up to date lazily, and blocks after a table that crosses a page were left
        // without lines (drawn as nothing).
        doc.setPageSize(body);

        // The scenario's name gives way when the line is too long, never the version or the hash
        // (issue 39: "GPU Wor….1.0").
        const auto footerWith = [&](const QString &scenario) {
            return QStringLiteral("%5 \u00b7 %1 \u00b7 GPU Workbench %2 \u00b7 prices as of %3 \u00b7 SHA-256 %4")
                .arg(scenario, record.value(QLatin1String("engine_version")).toString(),
                     record.value(QLatin1String("today")).toString(),
                     record.value(QLatin1String("sha256")).toString().left(16) + QStringLiteral("..."))
                .arg(kind);
        };
        const QString scenarioName = record.value(QLatin1String("scenario")).toString().simplified();
        QPainter painter;
        if (!painter.begin(&pdf))
            return path + QStringLiteral(": cannot be written: the PDF writer could not start");
        const int pages = doc.pageCount();
        QFont small = font;
        small.setPointSizeF(7);
        for (int i = 0; i < pages; ++i) {
            if (i > 0)
                pdf.newPage();
            painter.save();
            painter.translate(0, -i * body.height());
            doc.drawContents(&painter, QRectF(0, i * body.height(), body.width(), body.height()));
            painter.restore();
            painter.setFont(small);
            painter.setPen(QColor(80, 80, 80));
            const QRectF foot(0, body.height() + footer * 0.3, body.width(), footer * 0.7);
            const QString number = QStringLiteral("page %1 of %2").arg(i + 1).arg(pages);
            const QFontMetricsF fm(small, &pdf);
            const qreal room = foot.width() - fm.horizontalAdvance(number) - fm.height() * 2;
            const qreal forName = std::max(room - fm.horizontalAdvance(footerWith(QString())), fm.height() * 3);
            painter.drawText(foot, Qt::AlignLeft | Qt::AlignVCenter,
                             fm.elidedText(footerWith(fm.elidedText(scenarioName, Qt::ElideRight, forName)), Qt::ElideRight, room));
            painter.drawText(foot, Qt::AlignRight | Qt::AlignVCenter, number);
        }
        painter.end();
    }
    if (!file.commit())
        return path + QStringLiteral(": cannot be written: ") + file.errorString();
    return {};
}

} // namespace wb
