// How many sequences a replica's KV cache must hold for the brief's traffic, and the smallest
// deployment that holds the brief when the candidate as entered does not.
#include "fit/memorymodel.h"

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
        const char *text = WB_MESSAGE("Messages", "KV cache sized for {sequences} requests in flight per replica: {rate:.3g} "
                                      "requests/s per replica x {duration_s:.3g} s, the longest a request may take "
                                      "within the SLO (Little's law); the performance model refines this");
        const double rest = std::max(0.0, w.outputTokens - 1);
        if (!duration && ttft && tpot)
            duration = *ttft + *tpot * rest;
        else if (!duration && ttft) {
            // Only the first token is bounded: the rest of the answer at an assumed pace.
            duration = *ttft + a.value(Assumption::SizingTpotS) * rest;
            text = WB_MESSAGE("Messages", "KV cache sized for {sequences} requests in flight per replica: {rate:.3g} requests/s per "
                              "replica x {duration_s:.3g} s, the TTFT target plus {tokens:.0f} output tokens at "
                              "sizing_tpot_s ({sizing_tpot_s:.3g} s each), as the SLO bounds only the first token "
                              "(Little's law); the performance model refines this");
        } else if (!duration && tpot) {
            duration = *tpot * std::max(1.0, w.outputTokens);
            text = WB_MESSAGE("Messages", "KV cache sized for {sequences} requests in flight per replica: {rate:.3g} requests/s per "
                              "replica x {duration_s:.3g} s, the output tokens at the TPOT target (the SLO does not bound "
                              "the first token) (Little's law); the performance model refines this");
        }
        if (duration) {
            z.sequences = std::max(1, int(std::ceil(*t.requestRatePerS / replicas * *duration)));
            z.note = makeMessage("concurrency-from-slo", "/workload/slo", text,
                                 {{"sequences", std::int64_t(z.sequences)}, {"rate", *t.requestRatePerS / replicas},
                                  {"duration_s", *duration}, {"tokens", rest},
                                  {"sizing_tpot_s", a.value(Assumption::SizingTpotS)}});
        } else {
            z.note = makeMessage("concurrency-assumed", "/workload/slo",
                                 WB_MESSAGE("Messages", "the brief gives a request rate but no SLO or concurrency, so the in-flight "
                                            "requests are unknown; the KV cache is sized for one sequence per replica. "
                                            "Give the traffic's concurrency or a latency target"));
        }
    } else {
        // Offline and batch: the engine fills whatever KV it has; one sequence must fit.
        z.sequences = 1;
    }
    const int cap = int(a.value(Assumption::MaxNumSeqs));
    if (z.sequences > cap) {
        z.note = makeMessage("concurrency-above-batch-limit", "/assumptions/max_num_seqs",
                             WB_MESSAGE("Messages", "{sequences} concurrent requests per replica exceed max_num_seqs ({max_num_seqs}); "
                                        "the excess queues and the KV cache is sized for {max_num_seqs}"),
                             {{"sequences", std::int64_t(z.sequences)}, {"max_num_seqs", std::int64_t(cap)}});
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
        r.resizeReason = makeMessage("resized", candidateField("tensor_parallel"),
                                     WB_MESSAGE("Messages", "{gpus} {gpu} at TP {tp}, PP {pp} do not hold the training state; at the "
                                                "same count, TP {resized_tp} and PP {resized_pp} ({data_parallel} "
                                                "data-parallel ranks) do; the rankings use {resized_gpus} GPUs (TP "
                                                "{resized_tp}, PP {resized_pp}), evaluated in full"),
                                     {{"gpus", std::int64_t(gpus)}, {"gpu", gpu.name}, {"tp", std::int64_t(entered.tp)},
                                      {"pp", std::int64_t(entered.pp)}, {"resized_tp", std::int64_t(sameCount->tensorParallel)},
                                      {"resized_pp", std::int64_t(sameCount->pipelineParallel)},
                                      {"data_parallel", std::int64_t(sameCount->dataParallel)},
                                      {"resized_gpus", std::int64_t(sameCount->gpus())}});
        return;
    }
    if (r.smallestLayout) {
        r.resize = *r.smallestLayout;
        const int gpus = entered.tp * entered.pp * entered.cp * entered.dp;
        const Layout &l = *r.smallestLayout;
        r.resizeReason = makeMessage(
            "resized", candidateField("gpus"),
            isInference(w.kind)
                ? WB_MESSAGE("Messages", "{gpus} {gpu} cannot hold the model and one request of the brief; the smallest layout that "
                             "does is {resized_gpus} GPUs (TP {resized_tp}, PP {resized_pp}); the rankings use {resized_gpus} "
                             "GPUs (TP {resized_tp}, PP {resized_pp}), evaluated in full")
                : WB_MESSAGE("Messages", "{gpus} {gpu} cannot hold the training state; the smallest layout that does is "
                             "{resized_gpus} GPUs (TP {resized_tp}, PP {resized_pp}); the rankings use {resized_gpus} "
                             "GPUs (TP {resized_tp}, PP {resized_pp}), evaluated in full"),
            {{"gpus", std::int64_t(gpus)}, {"gpu", gpu.name}, {"resized_gpus", std::int64_t(l.gpus())},
             {"resized_tp", std::int64_t(l.tensorParallel)}, {"resized_pp", std::int64_t(l.pipelineParallel)}});
    }
}
} // namespace wb::fitdetail
