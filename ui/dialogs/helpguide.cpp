#include "dialogs/helpguide.h"

#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace wb {

HelpGuide::HelpGuide(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("GPU Workbench: guide and glossary"));
    auto *layout = new QVBoxLayout(this);
    m_browser = new QTextBrowser(this);
    m_browser->setOpenLinks(true);
    m_browser->setOpenExternalLinks(false);
    m_browser->setHtml(html());
    m_browser->setAccessibleName(tr("Guide and glossary"));
    layout->addWidget(m_browser);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(760, 620);
}

void HelpGuide::showTerm(const QString &anchor)
{
    m_browser->scrollToAnchor(anchor);
}

QString HelpGuide::html()
{
    return tr(
        "<h2>The method, page by page</h2>"
        "<ol>"
        "<li><b>Brief</b>: what the workload is (kind, model, token lengths, traffic, latency targets, "
        "acceptance, data boundary and the region the data must stay in: offers stated to run elsewhere are left "
        "out). Items marked ⚠ on the left hold back the ranking until they are given. <i>File &gt; New "
        "Comparison…</i> asks the same for any kind, a page at a time.</li>"
        "<li><b>Candidates</b>: GPU, count, parallelism (<a href=\"#tp\">TP/PP</a>) and serving stack of each option, "
        "with its specifications, sources and dated prices. <i>Add a price quote…</i> records a vendor's offer. "
        "<i>Scenario &gt; Find Layouts…</i> (Ctrl+Shift+L) searches every TP/PP size, accepted precision and serving "
        "stack of the GPUs you tick for the cheapest layouts within the targets, with the Pareto fronts of cost "
        "against latency and of throughput per GPU against tokens/s per user, and adds the ones you select as "
        "candidates.</li>"
        "<li><b>Memory fit</b>: whether each candidate holds the weights, the KV cache of the brief's load and the "
        "runtime, with what <a href=\"#headroom\">headroom</a>. A count that cannot hold the brief is "
        "<a href=\"#sized\">sized</a>, not dropped.</li>"
        "<li><b>Performance</b>: the brief's traffic simulated on each candidate: <a href=\"#ttft\">TTFT</a>, "
        "<a href=\"#tpot\">TPOT</a>, end-to-end latency at <a href=\"#percentile\">p50/p99</a>, the highest rate "
        "within the targets, and the replicas the peak needs. For training, fine-tuning and LoRA: the time per step "
        "(hover it for where it goes), tokens per second, MFU, the time to train the brief's tokens and the time to "
        "expect once checkpoints, interruptions and restarts are counted, with charts of tokens/s against the GPU "
        "count and of the share of the run lost against the checkpoint interval (the best interval marked). For media "
        "generation: seconds per image or clip (hover it for text encoding, denoising and decoding), images or clips "
        "an hour at the best batch, and the end-to-end wait through the job queue at the brief's traffic.</li>"
        "<li><b>Cost</b>: the all-in monthly cost of each candidate and pricing term, divided by the "
        "<a href=\"#accepted\">accepted outputs</a>; the model API beside it, priced in the unit the work is billed "
        "by (tokens, an image or its megapixels, a second of video, or a managed fine-tune's training tokens); "
        "break-even volumes. A training run is priced per completed run: its GPU-hours, checkpoint writes, work lost "
        "to interruptions, storage (the dataset staged too), moving a dataset held elsewhere, and labour. An "
        "image or clip adds failed renders, the outputs kept in storage, moderation and operator review.</li>"
        "<li><b>Checklist</b>: the method's procurement questions asked of every vendor, vendors side by side. "
        "Y, N, P, U and A answer the selected cell (yes, no, partial, unknown, not applicable) and move down; Enter "
        "adds the vendor's words, a link or a file as evidence, the date and who answered. Red cells are questions the "
        "chosen commitment requires and nobody answered; amber ones are answered without the evidence a purchase "
        "needs. A reserve or purchase recommendation stands <a href=\"#evidence\">subject to evidence</a> until its "
        "vendor has answered them.</li>"
        "<li><b>Evidence</b>: the results of your own benchmark runs (vLLM bench serve, GuideLLM, LLMPerf, "
        "GenAI-Perf or AIPerf, or a CSV), each imported as a run of one candidate and compared with the prediction "
        "at the run's own load and lengths. The scenario's figures are then calibrated from the runs of each GPU "
        "and serving stack and marked \"calibrated from N runs\" wherever they appear; the switch turns this off "
        "for the scenario.</li>"
        "<li><b>Plan</b>: how to test a candidate before committing, in the method's four phases, each criterion "
        "the brief's target beside the prediction, with commands for vLLM's and GuideLLM's benchmarks.</li>"
        "<li><b>Compare &amp; decide</b>: one row per option, the best of each column in bold, and the "
        "recommendation with its reasons.</li>"
        "<li><b>Record</b>: the decision record for finance, platform and product to review later. Choose the option, "
        "say why and who signs, then Record decision…: the scenario is frozen with its brief, dated prices, "
        "calibration, results, checklist and runs, and a SHA-256 of it all. Records are never edited; a new one "
        "supersedes. Recompute with this version lists every input and figure that has moved since; Export PDF prints "
        "the record (or a draft of the scenario as it stands), Export XLSX the figures as a workbook.</li>"
        "</ol>"
        "<p>Figures in <i>italics</i> are a first answer from short simulations; the full evaluation replaces them "
        "a moment later. A missing figure says why in its cell; its tooltip gives the whole reason. Hover a "
        "predicted figure for its <a href=\"#band\">P10-P90 band</a>; the charts shade it. Every change is "
        "one Edit &gt; Undo step.</p>"
        "<h2>Glossary</h2>"
        "<dl>"
        "<dt><a name=\"evidence\"></a><b>Subject to evidence</b></dt><dd>A recommendation to reserve, buy or rent a "
        "dedicated cluster whose vendor has not yet answered every checklist question that commitment requires (from "
        "a purchase on, with a link or a file as evidence). The warnings name the questions.</dd>"
        "<dt><a name=\"ttft\"></a><b>TTFT</b> (time to first token)</dt><dd>From a request's arrival to its first "
        "output token: queueing plus prefill of the prompt. What a chat user feels as the wait.</dd>"
        "<dt><a name=\"tpot\"></a><b>TPOT</b> (time per output token)</dt><dd>The mean time between output tokens of "
        "one request after the first: (end-to-end − TTFT) / (output tokens − 1).</dd>"
        "<dt><a name=\"itl\"></a><b>ITL</b> (inter-token latency)</dt><dd>Each gap between consecutive tokens of a "
        "request; its tail shows stalls that TPOT's mean hides.</dd>"
        "<dt><a name=\"e2e\"></a><b>E2E</b> (end-to-end latency)</dt><dd>From arrival to the last token.</dd>"
        "<dt><a name=\"percentile\"></a><b>p50, p95, p99</b></dt><dd>The latency that 50%, 95% or 99% of requests "
        "stay under. Targets are set on a percentile (usually p99): each chart is drawn against the target of "
        "its own percentile.</dd>"
        "<dt><a name=\"slo\"></a><b>SLO</b> (latency targets)</dt><dd>The percentiles the brief requires, such "
        "as TTFT p99 ≤ 1 s. <i>Max req/s</i> is the highest steady rate whose simulated percentiles meet them.</dd>"
        "<dt><a name=\"band\"></a><b>P10-P90 band</b></dt><dd>How far a predicted figure can be trusted: where "
        "published measurements fell around the model's predictions when its calibration had seen none of the "
        "case's GPU family, model size, serving stack or source. One time in ten the truth lies below P10, one in ten "
        "above P90: for a latency P90 is the slow end, for throughput P10 is the short one. They are percentiles of "
        "the figure's true value, not of the requests: a band on a p99 latency says where that p99 may lie. Wider "
        "where the brief lies outside the measured data (a GPU family, a model size or a serving stack release "
        "without cases); the recommendation says whether it holds at both ends.</dd>"
        "<dt><a name=\"goodput\"></a><b>Goodput</b></dt><dd>Requests per second that meet every target, as opposed "
        "to throughput, which counts every request served however late.</dd>"
        "<dt><a name=\"tp\"></a><b>TP / PP</b> (tensor and pipeline parallelism)</dt><dd>TP splits every layer "
        "across GPUs (all-reduces each layer: wants a fast GPU-to-GPU fabric); PP splits the layers into "
        "stages. One replica uses TP × PP GPUs; replicas = GPUs / (TP × PP).</dd>"
        "<dt><a name=\"replica\"></a><b>Replica</b></dt><dd>One copy of the model serving requests; the load is "
        "spread over replicas. The cost is for the replicas the peak needs.</dd>"
        "<dt><a name=\"headroom\"></a><b>Headroom</b></dt><dd>The share of a GPU's memory left free at the brief's "
        "point. Little headroom is a fragile fit: longer prompts or a framework update can tip it over.</dd>"
        "<dt><a name=\"sized\"></a><b>Sized from N</b></dt><dd>The figures are for the deployment the engine "
        "sized, not the N GPUs entered: the replicas the brief's peak needs within the latency targets "
        "(whatever count was typed), or, when the candidate as entered cannot hold the brief, the smallest "
        "count and layout of the same GPU that can (its row as entered is then shown too). The reason is in "
        "the warnings.</dd>"
        "<dt><a name=\"accepted\"></a><b>Accepted output</b></dt><dd>An output that did not fail and passed the "
        "quality filter. Cost per accepted output = all-in monthly cost / accepted outputs a month: failures and "
        "rejects are paid for but do not count.</dd>"
        "<dt><a name=\"utilization\"></a><b>Utilization</b></dt><dd>The busy share of the GPU time paid for: rented "
        "GPUs are paid as the brief's billing says (always on, a scheduled window, autoscaled with the load, or "
        "serverless per second of use), "
        "reserved and bought ones every hour. The rest is idle capacity.</dd>"
        "<dt><a name=\"breakeven\"></a><b>Break-even</b></dt><dd>The monthly volume from which self-hosting costs "
        "less than the model API, or the share of the month on-demand GPUs would have to be billed for before a "
        "commitment costs less.</dd>"
        "<dt><a name=\"hybrid\"></a><b>Hybrid</b></dt><dd>GPUs for the steady base of bursty traffic, with all "
        "their fixed costs, and the model API for the requests bursts add above them.</dd>"
        "<dt><a name=\"coldstart\"></a><b>Cold start</b></dt><dd>A request that finds no replica ready (the "
        "service scaled to zero, or a burst outgrew the replicas running) waits for one to load its weights and "
        "start. From 1% of requests this reaches the p99 latency; the simulated latencies leave it out, so a "
        "warning gives the share and the wait.</dd>"
        "<dt><a name=\"spot\"></a><b>Spot</b></dt><dd>Spare capacity the provider can take back. Each "
        "interruption costs a replacement's start (and the work in flight when requests outlast the notice); "
        "spot is weighed only for work that tolerates interruptions.</dd>"
        "</dl>");
}

} // namespace wb
