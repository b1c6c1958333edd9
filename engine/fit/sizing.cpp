// How many sequences a replica's KV cache must hold for the brief's traffic, and the smallest
// deployment that holds the brief when the candidate as entered does not.
#include "fit/memorymodel.h"

#include <fmt/format.h>

namespace wb::fitdetail {

int ceilDiv(long long a, long long b)
{
    return int((a + b - 1) / b);
}

Sizing sizeConcurrency(const Workload &w, int replicas, const Assumptions &a)
{
    Sizing z;
    const Traffic &t = w.traffic;
    if (t.concurrency) {
        z.sequences = ceilDiv(*t.concurrency, replicas);
    } else if (t.mode == TrafficMode::OpenLoop && t.requestRatePerS) {
        // Little's law with the longest time a request may take and still meet the SLO.
        std::optional<double> duration = w.slo.e2eP99S ? w.slo.e2eP99S : w.slo.e2eP95S;
        const auto ttft = w.slo.ttftP99S ? w.slo.ttftP99S : w.slo.ttftP95S;
        const auto tpot = w.slo.tpotP99S ? w.slo.tpotP99S : w.slo.tpotP95S;
        std::string basis = "the longest a request may take within the SLO";
        if (!duration && ttft && tpot)
            duration = *ttft + *tpot * std::max(0.0, w.outputTokens - 1);
        else if (!duration && ttft) {
            // Only the first token is bounded: the rest of the answer at an assumed pace.
            duration = *ttft + a.value(Assumption::SizingTpotS) * std::max(0.0, w.outputTokens - 1);
            basis = fmt::format("the TTFT target plus {:.0f} output tokens at sizing_tpot_s ({:.3g} s each), as the "
                                "SLO bounds only the first token",
                                std::max(0.0, w.outputTokens - 1), a.value(Assumption::SizingTpotS));
        } else if (!duration && tpot) {
            duration = *tpot * std::max(1.0, w.outputTokens);
            basis = "the output tokens at the TPOT target (the SLO does not bound the first token)";
        }
        if (duration) {
            z.sequences = std::max(1, int(std::ceil(*t.requestRatePerS / replicas * *duration)));
            z.note = Warning{"concurrency-from-slo",
                             fmt::format("KV cache sized for {:.0f} requests in flight per replica: {:.3g} requests/s per replica "
                                 "x {:.3g} s, {} (Little's law); the performance model refines this",
                                 double(z.sequences), *t.requestRatePerS / replicas, *duration, basis)};
        } else {
            z.note = Warning{"concurrency-assumed",
                             "the brief gives a request rate but no SLO or concurrency, so the in-flight requests "
                             "are unknown; the KV cache is sized for one sequence per replica. Give "
                             "the traffic's concurrency or a latency target"};
        }
    } else {
        // Offline and batch: the engine fills whatever KV it has; one sequence must fit.
        z.sequences = 1;
    }
    const int cap = int(a.value(Assumption::MaxNumSeqs));
    if (z.sequences > cap) {
        z.note = Warning{"concurrency-above-batch-limit",
                         fmt::format("{:.0f} concurrent requests per replica exceed max_num_seqs ({:.0f}); the excess queues "
                             "and the KV cache is sized for {:.0f}",
                             double(z.sequences), double(cap), double(cap))};
        z.sequences = cap;
    }
    return z;
}

double inferenceContext(const Workload &w, bool p95)
{
    const double in = p95 ? std::max(w.inputTokens, w.inputTokensP95.value_or(0)) : w.inputTokens;
    const double out = p95 ? std::max(w.outputTokens, w.outputTokensP95.value_or(0)) : w.outputTokens;
    return w.kind == WorkloadKind::Embedding ? in : in + out;
}

std::vector<int> powersOfTwo(int from, int to)
{
    std::vector<int> v;
    for (long long x = from; x <= to; x *= 2)
        v.push_back(int(x));
    return v;
}

std::optional<std::pair<Layout, int>> smallestFit(const MemoryModel &model, const Workload &w, const Shape &briefShape)
{
    const ModelSpec &m = w.model;
    std::vector<Layout> layouts;
    const int maxTp = std::max(1, std::min(64, m.attentionHeads));
    for (int tp : powersOfTwo(1, maxTp)) {
        if (m.attentionHeads % tp != 0)
            continue;
        for (int pp : powersOfTwo(1, std::min(64, m.layers))) {
            if (isInference(w.kind)) {
                layouts.push_back({tp, pp, 1});
                continue;
            }
            const bool sharded = w.training && w.training->sharding != Sharding::None;
            const int cp = briefShape.cp;
            for (int dp : powersOfTwo(1, sharded ? 4096 : 1))
                if (static_cast<long long>(tp) * pp * cp * dp <= 4096)  // 64 x 8 x 1024 x 4096 overflowed an int
                    layouts.push_back({tp, pp, dp, cp});
        }
    }
    std::stable_sort(layouts.begin(), layouts.end(), [](const Layout &x, const Layout &y) {
        return x.gpus() != y.gpus() ? x.gpus() < y.gpus() : x.pipelineParallel < y.pipelineParallel;
    });
    for (const Layout &l : layouts) {
        Shape s = briefShape;
        s.tp = l.tensorParallel;
        s.pp = l.pipelineParallel;
        s.dp = l.dataParallel;
        s.cp = l.contextParallel;
        if (isInference(w.kind))
            s.sequences = 1;  // the weights and one request (the rest of the load queues)
        if (model.estimate(s).fits)
            return std::make_pair(l, l.gpus());
    }
    return std::nullopt;
}

// The smallest deployment that holds the brief when the candidate as entered does not (see
// FitResult::resize): the smallest layout. (Inference fits with the weights and one request, so
// more replicas of a layout that does not fit never would.)
std::optional<Layout> sameCountFit(const MemoryModel &model, const Workload &w, const Shape &entered)
{
    const ModelSpec &m = w.model;
    const int gpus = entered.tp * entered.pp * entered.cp * entered.dp;
    std::vector<Layout> layouts;
    for (int tp : powersOfTwo(1, std::max(1, std::min(64, m.attentionHeads))))
        for (int pp : powersOfTwo(1, std::max(1, std::min(64, m.layers))))
            if (m.attentionHeads % tp == 0 && static_cast<long long>(tp) * pp * entered.cp <= gpus && gpus % (tp * pp * entered.cp) == 0)
                layouts.push_back({tp, pp, gpus / (tp * pp * entered.cp), entered.cp});
    std::stable_sort(layouts.begin(), layouts.end(), [](const Layout &x, const Layout &y) {
        const int a = x.tensorParallel * x.pipelineParallel, b = y.tensorParallel * y.pipelineParallel;
        return a != b ? a < b : x.pipelineParallel < y.pipelineParallel;
    });
    for (const Layout &l : layouts) {
        Shape s = entered;
        s.tp = l.tensorParallel;
        s.pp = l.pipelineParallel;
        s.dp = l.dataParallel;
        if (model.estimate(s).fits)
            return l;
    }
    return std::nullopt;
}

void resizeToFit(FitResult &r, const Workload &w, const Shape &entered, const GpuSpec &gpu, const std::optional<Layout> &sameCount)
{
    if (sameCount) {
        r.resize = *sameCount;
        const int gpus = sameCount->gpus();
        r.resizeReason = fmt::format("{} {} at TP {}, PP {} do not hold the training state; at the same count, TP {} and PP {} "
                                     "({} data-parallel ranks) do",
                                     gpus, gpu.name, entered.tp, entered.pp, sameCount->tensorParallel,
                                     sameCount->pipelineParallel, sameCount->dataParallel);
        return;
    }
    if (r.smallestLayout) {
        r.resize = *r.smallestLayout;
        const int gpus = entered.tp * entered.pp * entered.cp * entered.dp;
        r.resizeReason = fmt::format("{} {} {} not hold the {}; the smallest layout that does is {} GPUs (TP {}, PP {})",
                                     gpus, gpu.name, gpus == 1 ? "does" : "do",
                                     isInference(w.kind) ? "model and one request of the brief" : "training state",
                                     r.smallestLayout->gpus(), r.smallestLayout->tensorParallel,
                                     r.smallestLayout->pipelineParallel);
    }
}
} // namespace wb::fitdetail
