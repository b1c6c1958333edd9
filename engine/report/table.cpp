#include "report/report.h"

#include "brief/completeness.h"
#include "catalog/modelarch.h"
#include "core/format.h"
#include "core/limits.h"
#include "report/labels.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace wb {

namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

std::string gib(std::uint64_t bytes)
{
    return fmt::format("{:.2f}", double(bytes) / GiB);
}

std::string pad(std::string s, std::size_t width, bool right = false)
{
    if (s.size() >= width)
        return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

using Columns = std::vector<std::pair<std::string, std::size_t>>;  // header, width

// One row of a fixed-width table: the first column left-aligned, the rest right-aligned from
// column `rightFrom`; a row short of cells is filled with "-".
void tableRow(std::ostream &out, const Columns &columns, std::vector<std::string> cells, std::size_t rightFrom = 1)
{
    cells.resize(columns.size(), "-");
    for (std::size_t i = 0; i < columns.size(); ++i)
        out << pad(cells[i], columns[i].second, i >= rightFrom) << (i + 1 < columns.size() ? " " : "\n");
}

void tableHeader(std::ostream &out, const Columns &columns, std::size_t rightFrom = 1)
{
    std::vector<std::string> names;
    for (const auto &c : columns)
        names.push_back(c.first);
    tableRow(out, columns, names, rightFrom);
}

// The candidate column is as wide as its longest label ("10x h200-sxm-141gb TP1 (sized from 8)"
// pushed every column after it out of line at a fixed 30).
std::size_t labelWidth(const Results &results)
{
    std::size_t width = 30;
    for (const CandidateResult &r : results.results)
        width = std::max(width, deploymentLabel(r).size());
    return width;
}

std::string ms(const Distribution &d, double Distribution::*field)
{
    return d.empty ? std::string("-") : fmt::format("{:.0f}", d.*field * 1000);
}

std::string optionalNumber(const std::optional<double> &v, int decimals)
{
    return v ? fmt::format("{:.{}f}", *v, decimals) : std::string("-");
}

// Performance per candidate: throughput, latency percentiles (ms), SLO verdict and capacity.
std::string performanceTable(const Brief &brief, const Results &results)
{
    std::ostringstream out;
    const Traffic &t = brief.workload.traffic;
    out << "\nPerformance at the brief's traffic (" << enumName(t.mode);
    if (t.mode == TrafficMode::OpenLoop && t.requestRatePerS)
        out << fmt::format(", {:.3g} requests/s", *t.requestRatePerS);
    if (t.mode == TrafficMode::ClosedLoop && t.concurrency)
        out << fmt::format(", {:.0f} in flight", double(*t.concurrency));
    out << "; latencies in ms, all replicas together)\n";
    const Columns columns = {
        {"candidate", labelWidth(results)}, {"tok/s", 9}, {"tok/s/GPU", 10}, {"req/s", 8}, {"TTFT p50", 9}, {"TTFT p99", 9},
        {"TPOT p50", 9},   {"TPOT p99", 9}, {"E2E p99", 9}, {"SLO", 5},   {"max req/s", 10}, {"tok/s@SLO", 10},
        {"replicas", 9},   {"SLO@peak", 9}, {"capacity", 9}};
    tableHeader(out, columns);
    for (const CandidateResult &entered : results.results) {
        const CandidateResult &r = deployment(entered);
        const PerformanceResult &p = r.performance;
        std::vector<std::string> cells = {deploymentLabel(entered)};
        if (!p.computed) {
            cells.push_back("n/a");
        } else {
            const bool generates = !p.tpot.empty || p.outputTokensPerS > 0;
            cells.push_back(generates ? fmt::format("{:.0f}", p.outputTokensPerS) : "-");
            cells.push_back(generates ? fmt::format("{:.0f}", p.outputTokensPerSPerGpu) : "-");
            cells.push_back(fmt::format("{:.2f}", p.requestsPerS));
            cells.push_back(ms(p.ttft, &Distribution::p50));
            cells.push_back(ms(p.ttft, &Distribution::p99));
            cells.push_back(ms(p.tpot, &Distribution::p50));
            cells.push_back(ms(p.tpot, &Distribution::p99));
            cells.push_back(ms(p.e2e, &Distribution::p99));
            cells.push_back(p.sloMet ? (*p.sloMet ? "yes" : "NO") : "-");
            cells.push_back(optionalNumber(p.maxRequestRateWithinSloPerS, 2));
            cells.push_back(optionalNumber(p.outputTokensPerSWithinSlo, 0));
            cells.push_back(p.replicasForPeak ? std::to_string(*p.replicasForPeak) : "-");
            cells.push_back(p.sloMetAsDeployed ? (*p.sloMetAsDeployed ? "yes" : "NO") : "-");
            cells.push_back(generates ? fmt::format("{:.0f}", p.maxOutputTokensPerS) : "-");
        }
        tableRow(out, columns, cells);
    }
    out << "max req/s: highest Poisson rate within the SLO; replicas: needed for the peak rate ("
        << fmt::format("{:.3g}", t.peakRate())
        << " requests/s), the deployment costed below; SLO@peak: those replicas simulated at the peak; capacity: output "
           "tokens/s with everything queued.\n";
    return out.str();
}

// Training kinds: the step, the time to train with and without failures, and checkpoints.
std::string trainingTable(const Results &results)
{
    std::ostringstream out;
    out << "\nTraining time (tokens/s for the whole candidate; times with checkpoints, interruptions and restarts "
           "expected)\n";
    const Columns columns = {{"candidate", labelWidth(results)}, {"tok/s", 11}, {"tok/s/GPU", 10}, {"step s", 8}, {"MFU", 6},
                             {"time", 11},      {"expected", 11}, {"GPU-hours", 12}, {"interrupts", 10},
                             {"ckpt GB", 9},    {"every", 9},    {"waste", 6}};
    tableHeader(out, columns);
    const auto duration = [](const std::optional<double> &s) { return s ? readableDuration(*s) : std::string("-"); };
    for (const CandidateResult &entered : results.results) {
        const CandidateResult &r = deployment(entered);
        std::vector<std::string> cells = {deploymentLabel(entered)};
        if (!r.performance.training) {
            cells.push_back("n/a");
        } else {
            const TrainingPerformance &t = *r.performance.training;
            cells.push_back(fmt::format("{:.0f}", t.tokensPerS));
            cells.push_back(fmt::format("{:.0f}", t.tokensPerSPerGpu));
            cells.push_back(fmt::format("{:.3g}", t.stepTimeS));
            cells.push_back(fmt::format("{:.1f}%", 100 * t.mfu));
            cells.push_back(duration(t.timeToTrainS));
            cells.push_back(duration(t.expectedTimeToTrainS));
            cells.push_back(t.gpuHours ? readableCount(*t.gpuHours) : "-");
            cells.push_back(optionalNumber(t.expectedInterruptions, 1));
            cells.push_back(fmt::format("{:.1f}", t.checkpoint.sizeBytes / 1e9));
            cells.push_back(t.checkpoint.intervalS > 0 ? readableDuration(t.checkpoint.intervalS) : "at end");
            cells.push_back(t.expectedTimeToTrainS ? fmt::format("{:.1f}%", 100 * t.checkpoint.wastedFraction) : "-");
        }
        tableRow(out, columns, cells);
    }
    out << "MFU: model FLOPs (6N + 12 L h s per token; adapters 4N + 6N_a + 12 L h s) over the dense peak; every: the "
           "checkpoint interval (the brief's, else the one that wastes least); waste: checkpoints, lost work and "
           "restarts as a share of the expected time.\n";
    return out.str();
}

// Media generation: one output alone, outputs per hour at the best batch, and end-to-end latency
// through the batching queue at the brief's traffic.
std::string mediaTable(const Brief &brief, const Results &results)
{
    std::ostringstream out;
    out << "\nMedia generation (" << enumName(brief.workload.traffic.mode)
        << "; outputs per hour for the whole candidate at the batch shown; end-to-end seconds through the queue)\n";
    const Columns columns = {{"candidate", labelWidth(results)}, {"s/output", 9}, {"batch", 6},     {"out/h", 10}, {"out/h/GPU", 10},
                             {"E2E p50", 8},    {"E2E p95", 8},   {"E2E p99", 8},   {"SLO", 5},    {"max out/s", 10},
                             {"replicas", 9},   {"capacity", 9}};
    tableHeader(out, columns);
    const auto seconds = [](const Distribution &d, double v) { return d.empty ? std::string("-") : fmt::format("{:.1f}", v); };
    for (const CandidateResult &entered : results.results) {
        const CandidateResult &r = deployment(entered);
        const PerformanceResult &p = r.performance;
        std::vector<std::string> cells = {deploymentLabel(entered)};
        if (!p.media) {
            cells.push_back("n/a");
        } else {
            const MediaPerformance &m = *p.media;
            cells.push_back(fmt::format("{:.2f}", m.secondsPerOutput));
            cells.push_back(std::to_string(m.queueBatch));  // what the queue runs, as the window shows
            cells.push_back(readableCount(m.outputsPerHour));
            cells.push_back(readableCount(m.outputsPerHourPerGpu));
            cells.push_back(seconds(p.e2e, p.e2e.p50));
            cells.push_back(seconds(p.e2e, p.e2e.p95));
            cells.push_back(seconds(p.e2e, p.e2e.p99));
            cells.push_back(p.sloMet ? (*p.sloMet ? "yes" : "NO") : "-");
            cells.push_back(optionalNumber(p.maxRequestRateWithinSloPerS, 2));
            cells.push_back(p.replicasForPeak ? std::to_string(*p.replicasForPeak) : "-");
            cells.push_back(fmt::format("{:.3g}", p.maxRequestsPerS));
        }
        tableRow(out, columns, cells);
    }
    out << "s/output: one output alone on a replica; batch: the most outputs the queue runs together, the smallest "
           "batch within 1% of the outputs an hour of the brief's batch or the largest that fits (out/h is at that "
           "one); max out/s: the highest Poisson rate whose end-to-end percentiles "
           "meet the targets (as in the window); replicas: needed for the peak rate, the deployment costed below; "
           "capacity: outputs/s with everything queued.\n";
    return out.str();
}

namespace {

// The recommendation's headline and reasons, or why there is none.
void recommendationLines(std::ostream &out, const Results &results)
{
    if (const auto &rec = results.cost.recommendation) {
        out << "\nRecommendation: " << limits::printable(recommendationHeadline(results), 4000) << "\n";
        for (const Message &reason : rec->reasons)
            out << "  - " << limits::printable(reason.message, 4000) << "\n";
    } else if (!results.ranked()) {
        out << "\nRecommendation: none; " << rankingHeldBackText(results.rankingHeldBackBy) << "\n";
    }
}

} // namespace

// Cost per candidate (its deployment) and pricing term, the API route and the recommendation.
std::string costTable(const Results &results)
{
    const bool perRun = std::any_of(results.results.begin(), results.results.end(), [](const CandidateResult &r) {
        return deployment(r).performance.training.has_value();
    });
    if (perRun) {
        std::ostringstream out;
        out << "\nCost of a completed run (USD; GPU-hours, checkpointing, failed-run waste, storage, network, platform "
               "labour; prices aged against "
            << results.cost.today << ")\n";
        const Columns columns = {{"candidate", labelWidth(results)}, {"term", 12}, {"provider", 34}, {"observed", 11}, {"$/GPU-h", 8},
                                 {"GPUs", 5},       {"$/run", 14}, {"$/accepted", 14}};
        tableHeader(out, columns, 4);
        for (const CandidateResult &entered : results.results) {
            const CandidateResult &r = deployment(entered);
            if (!r.cost.computed)
                tableRow(out, columns, {deploymentLabel(entered), "n/a"}, 4);
            for (const CostOption &o : r.cost.options) {
                const std::string shown = limits::printable(o.provider);
                tableRow(out, columns,
                         {deploymentLabel(entered), std::string(enumName(*o.term)),
                          shown.size() > 33 ? shown.substr(0, 32) + "~" : shown, o.observed + (o.stale ? "!" : ""),
                          fmt::format("{:.2f}", o.usdPerGpuHour), std::to_string(o.gpus), usdAmount(o.totalUsdPerMonth),
                          usdAmount(o.costPerAcceptedOutput)},
                         4);
            }
        }
        if (const auto &api = results.cost.api) {
            const std::string shown = limits::printable(api->provider);
            tableRow(out, columns,
                     {"managed fine-tuning", "api", shown.size() > 33 ? shown.substr(0, 32) + "~" : shown,
                      api->observed + (api->stale ? "!" : ""), "-", "-", usdAmount(api->totalUsdPerMonth),
                      usdAmount(api->costPerAcceptedOutput)},
                     4);
        }
        out << "$/accepted: the run's cost over the share of runs whose model passes evaluation "
               "(acceptance.quality_pass_rate). Lines of each option: gpuwb evaluate --format json.\n";
        recommendationLines(out, results);
        return out.str();
    }
    std::ostringstream out;
    out << "\nCost per " << results.cost.unit << " (USD; capacity sized for the peak within the SLO; prices aged against "
        << results.cost.today << ")\n";
    const Columns columns = {{"candidate", labelWidth(results)}, {"term", 12}, {"provider", 34}, {"observed", 11}, {"$/GPU-h", 8},
                             {"GPUs", 5},       {"util", 6},  {"$/month", 11},  {"$/accepted", 11}, {"$/M tokens", 10},
                             {"API break-even req/mo", 22}};
    tableHeader(out, columns, 4);
    const auto row = [&](const std::string &label, const CostOption &o) {
        const std::string shown = limits::printable(o.provider);
        std::string provider = shown.size() > 33 ? shown.substr(0, 32) + "~" : shown;
        tableRow(out, columns,
                 {label, o.api ? "api" : std::string(enumName(*o.term)), provider, o.observed + (o.stale ? "!" : ""),
                  o.api ? "-" : fmt::format("{:.2f}", o.usdPerGpuHour), o.api ? "-" : std::to_string(o.gpus),
                  fmt::format("{:.0f}%", 100 * o.utilization), fmt::format("{:.2f}", o.totalUsdPerMonth),
                  fmt::format("{:.6f}", o.costPerAcceptedOutput),
                  o.acceptedTokensPerMonth > 0 ? fmt::format("{:.3f}", o.costPerMillionAcceptedTokens) : std::string("-"),
                  o.breakEvenRequestsPerMonthVsApi ? readableCount(*o.breakEvenRequestsPerMonthVsApi)
                                                   : (results.cost.api && !o.api ? "never" : "-")},
                 4);
    };
    for (const CandidateResult &entered : results.results) {
        const CandidateResult &r = deployment(entered);
        if (!r.cost.computed)
            tableRow(out, columns, {deploymentLabel(entered), "n/a"}, 4);
        for (const CostOption &o : r.cost.options)
            row(deploymentLabel(entered), o);
        // Each option's hybrid: its base replicas with the API for what bursts add.
        for (const CostOption &h : r.cost.hybrids)
            row(fmt::format("{} base + API", h.hybrid ? h.hybrid->baseReplicas : 0) + " " + deploymentLabel(entered), h);
    }
    if (results.cost.api)
        row("model API", *results.cost.api);
    out << "$/accepted: USD per " << results.cost.unit << ". A date marked ! is older than price_stale_days. \"N base + API\": N replicas for the steady load, the model "
           "API for the bursts. Lines of each option: gpuwb evaluate --format json.\n";
    recommendationLines(out, results);
    return out.str();
}

std::string workloadSummary(const Brief &brief)
{
    const Workload &w = brief.workload;
    if (const auto &m = w.media)
        return std::string(enumName(w.kind)) + ", " + m->model.id + ", " + std::string(enumName(w.weightsPrecision)) + ", "
            + std::to_string(m->width) + "x" + std::to_string(m->height)
            + (m->model.video ? ", " + std::to_string(m->frames) + " frames" : std::string()) + ", "
            + std::to_string(m->steps) + " steps, " + std::to_string(m->passesPerStep()) + " pass"
            + (m->passesPerStep() == 1 ? "" : "es") + " a step";
    std::string s = std::string(enumName(w.kind)) + ", " + w.model.id + ", weights " + std::string(enumName(w.weightsPrecision));
    if (isInference(w.kind)) {
        s += ", KV " + std::string(enumName(w.kvCachePrecision)) + ", " + fmt::format("{:.0f}", w.inputTokens) + " in + "
            + fmt::format("{:.0f}", w.outputTokens) + " out tokens";
    } else if (w.training) {
        s += ", sequence " + std::to_string(w.training->sequenceLength) + " x micro-batch "
            + std::to_string(w.training->microBatchSize) + ", " + std::string(enumName(w.training->sharding));
    }
    return s;
}

std::string tflops(const std::optional<double> &v)
{
    return v ? fmt::format("{:.0f}", *v / 1e12) : "-";
}

} // namespace

std::string resultsToTable(const Brief &brief, const Results &results)
{
    std::ostringstream out;
    // Names and messages come from files: escaped, so that none can move the cursor or forge a line.
    out << "Brief: " << limits::printable(brief.name) << "\n  " << limits::printable(workloadSummary(brief)) << "\n\n";
    out << "Memory fit per GPU (GiB; need is the busiest GPU, usable is after the engine's memory cap)\n";
    const Columns columns = {
        {"candidate", labelWidth(results)}, {"fits", 5}, {"need", 8}, {"usable", 8}, {"capacity", 9}, {"headroom", 9},
        {"weights", 8},    {"kv", 8},   {"activ", 8}, {"grads", 8}, {"optim", 8},    {"runtime", 8},
        {"max conc", 9},   {"min GPUs", 9}};
    tableHeader(out, columns, 2);
    std::vector<std::pair<std::string, const CandidateResult *>> fitRows;
    for (const CandidateResult &r : results.results) {
        if (!r.resized || resizedToFit(r))
            fitRows.emplace_back(candidateLabel(r.candidate), &r);
        if (r.resized)
            fitRows.emplace_back(deploymentLabel(r), r.resized.get());
    }
    for (const auto &[label, result] : fitRows) {
        const FitResult &f = result->fit;
        std::vector<std::string> cells = {label};
        if (!f.computed) {
            cells.push_back("n/a");
        } else {
            cells.push_back(f.fits ? "yes" : "NO");
            cells.push_back(gib(f.perGpuBytes));
            cells.push_back(gib(f.usableBytes));
            cells.push_back(gib(f.capacityBytes));
            cells.push_back(fmt::format("{:.1f}%", 100 * f.headroomFraction));
            cells.push_back(gib(f.breakdown.weights));
            cells.push_back(gib(f.breakdown.kvCache));
            cells.push_back(gib(f.breakdown.activations));
            cells.push_back(gib(f.breakdown.gradients));
            cells.push_back(gib(f.breakdown.optimizerStates));
            cells.push_back(gib(f.breakdown.runtimeOverhead));
            cells.push_back(f.maxConcurrency ? std::to_string(*f.maxConcurrency) : "-");
            cells.push_back(f.smallestGpuCount ? std::to_string(*f.smallestGpuCount) : "none");
        }
        tableRow(out, columns, cells, 2);
    }
    out << (isTraining(brief.workload.kind) || isAdapter(brief.workload.kind) ? trainingTable(results)
            : brief.workload.media                                            ? mediaTable(brief, results)
                                                                             : performanceTable(brief, results));
    out << costTable(results);
    bool anyWarning = !results.briefWarnings.empty() || !results.cost.warnings.empty();
    for (const CandidateResult &r : results.results)
        anyWarning = anyWarning || !r.warnings.empty();
    if (anyWarning) {
        out << "\nWarnings\n";
        for (const Warning &w : results.briefWarnings)
            out << "  brief: [" << w.code << "] " << limits::printable(w.message, 4000) << "\n";
        for (const Warning &w : results.cost.warnings)
            out << "  cost: [" << w.code << "] " << limits::printable(w.message, 4000) << "\n";
        for (const CandidateResult &r : results.results) {
            for (const Warning &w : r.warnings)
                out << "  " << candidateLabel(r.candidate) << ": [" << w.code << "] " << limits::printable(w.message, 4000) << "\n";
            if (r.resized)  // the deployment's own, after why the candidate was sized
                for (const Warning &w : r.resized->warnings)
                    out << "  " << deploymentLabel(r) << ": [" << w.code << "] " << limits::printable(w.message, 4000) << "\n";
        }
    }
    bool header = false;
    for (const AssumptionInfo &info : assumptionCatalog()) {
        if (!brief.assumptions.overridden(info.key))
            continue;
        if (!header)
            out << "\nAssumptions set by the brief\n";
        header = true;
        out << "  " << info.name << " = " << fmt::format("{:.6g}", brief.assumptions.value(info.key)) << " " << info.unit
            << " (default " << fmt::format("{:.6g}", info.defaultValue) << ")\n";
    }
    return out.str();
}

// The pricing columns of one CSV row, each followed by a comma; empty for a row without a price.

std::string catalogGpusTable(const Catalog &catalog)
{
    std::ostringstream out;
    out << pad("id", 20) << pad("vendor", 8) << pad("memory GiB", 11, true) << pad("HBM TB/s", 10, true)
        << pad("bf16 TF", 9, true) << pad("fp8 TF", 8, true) << pad("fp4 TF", 8, true) << "  "
        << pad("scale-up", 26) << pad("power W", 8, true) << pad("year", 6, true) << "\n";
    for (const GpuSpec &g : catalog.gpus()) {
        const std::string scale = g.scaleUp.kind + " " + fmt::format("{:.0f}", g.scaleUp.bandwidthBytesPerS / 1e9) + " GB/s x"
            + std::to_string(g.scaleUp.domainGpus);
        out << pad(g.id, 20) << pad(g.vendor, 8) << pad(fmt::format("{:.0f}", double(g.memoryBytes) / GiB), 11, true)
            << pad(fmt::format("{:.2f}", g.memoryBandwidthBytesPerS / 1e12), 10, true) << pad(tflops(g.denseFlops.bf16), 9, true)
            << pad(tflops(g.denseFlops.fp8), 8, true) << pad(tflops(g.denseFlops.fp4), 8, true) << "  " << pad(scale, 26)
            << pad(fmt::format("{:.0f}", g.boardPowerW), 8, true) << pad(std::to_string(g.year), 6, true) << "\n";
    }
    out << "\nDense peaks (no structured sparsity). Sources: gpuwb catalog gpus --format json\n";
    return out.str();
}

std::string catalogModelsTable(const Catalog &catalog)
{
    std::ostringstream out;
    out << pad("id", 16) << pad("params B", 10, true) << pad("active B", 10, true) << pad("layers", 8, true)
        << pad("hidden", 8, true) << pad("heads", 7, true) << pad("kv", 5, true) << pad("ffn", 7, true)
        << pad("vocab", 8, true) << pad("experts", 9, true) << pad("context", 9, true) << pad("KV KiB/token", 14, true)
        << "\n";
    for (const ModelSpec &m : catalog.models()) {
        const ParameterCounts p = countParameters(m);
        const double kvPerToken = m.layers * kvBytesPerTokenPerLayer(m, Precision::Bf16, 1);
        out << pad(m.id, 16) << pad(fmt::format("{:.1f}", p.total() / 1e9), 10, true)
            << pad(fmt::format("{:.1f}", p.active() / 1e9), 10, true) << pad(std::to_string(m.layers), 8, true)
            << pad(std::to_string(m.hiddenSize), 8, true) << pad(std::to_string(m.attentionHeads), 7, true)
            << pad(m.mla ? std::string("MLA") : std::to_string(m.kvHeads), 5, true)
            << pad(std::to_string(m.isMoe() ? m.moeIntermediateSize : m.intermediateSize), 7, true)
            << pad(std::to_string(m.vocabSize), 8, true)
            << pad(m.isMoe() ? std::to_string(m.expertsPerToken) + "/" + std::to_string(m.experts) : "-", 9, true)
            << pad(std::to_string(m.maxContext), 9, true) << pad(fmt::format("{:.0f}", kvPerToken / 1024), 14, true) << "\n";
    }
    out << "\nParameters are counted from the architecture; KV per token is bf16 at TP1.\n";
    return out.str();
}

std::string catalogMediaTable(const Catalog &catalog)
{
    std::ostringstream out;
    out << pad("id", 16) << pad("kind", 6) << pad("denoiser", 9) << pad("params B", 10, true) << pad("text B", 8, true)
        << pad("native", 16, true) << pad("steps", 6, true) << pad("guidance", 10, true) << pad("TFLOP/pass", 12, true)
        << pad("VAE TFLOP", 11, true) << "\n";
    for (const MediaModelSpec &m : catalog.mediaModels()) {
        const MediaWork w = mediaWork(m, m.defaultWidth, m.defaultHeight, m.defaultFrames, m.defaultSteps, 1);
        out << pad(m.id, 16) << pad(m.video ? "video" : "image", 6) << pad(m.unet ? "UNet" : "DiT", 9)
            << pad(fmt::format("{:.1f}", m.denoiserParameters / 1e9), 10, true)
            << pad(fmt::format("{:.1f}", m.textEncoderParameters / 1e9), 8, true)
            << pad(fmt::format("{}x{}", m.defaultWidth, m.defaultHeight) + (m.video ? fmt::format("x{}", m.defaultFrames) : ""), 16, true)
            << pad(std::to_string(m.defaultSteps), 6, true) << pad(m.guidanceDistilled ? "distilled" : "2 passes", 10, true)
            << pad(fmt::format("{:.1f}", 2 * (w.pass.linear + w.pass.attention) / 1e12), 12, true)
            << pad(fmt::format("{:.1f}", 2 * (w.vae.linear + w.vae.attention) / 1e12), 11, true) << "\n";
    }
    out << "\nTFLOP/pass: one denoiser pass at the native size, counted from the architecture (attention included); "
           "VAE: decoding one output.\n";
    return out.str();
}

} // namespace wb
