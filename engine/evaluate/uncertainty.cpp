#include "evaluate/uncertainty.h"

#include "catalog/modelarch.h"
#include "cost/routes.h"
#include "core/format.h"

#include <fmt/format.h>

#include <cmath>

namespace wb {

namespace {

// Where a candidate lies against the calibration's data; the family is set per figure.
BandContext contextOf(const Brief &brief, const CandidateResult &r, const Catalog &catalog)
{
    BandContext ctx;
    const Workload &w = brief.workload;
    if (const GpuSpec *gpu = catalog.gpu(r.candidate.gpu))
        ctx.gpuFamily = gpu->architecture;
    if (w.media) {
        ctx.set = "media";
        ctx.sizeClass = "media:" + w.media->model.id;
    } else if (isTraining(w.kind) || isAdapter(w.kind)) {
        ctx.set = "training";
        ctx.sizeClass = modelSizeClass(countParameters(w.model).total());
    } else {
        // An encoder serves no tokens one by one: its cases are a set of their own.
        ctx.set = w.kind == WorkloadKind::Embedding ? "embedding" : w.model.isMoe() ? "moe" : "public";
        ctx.sizeClass = w.kind == WorkloadKind::Embedding ? "encoder" : modelSizeClass(countParameters(w.model).total());
        ctx.stack = enumName(r.candidate.servingStack);
        ctx.stackVersion = r.candidate.servingStackVersion;
    }
    return ctx;
}

void add(CandidateResult &r, const BandTable &bands, BandContext ctx, const char *family, const std::string &path, double value)
{
    ctx.family = family;
    if (auto b = bands.band(value, ctx))
        r.uncertainty[path] = std::move(*b);
}

void addDistribution(CandidateResult &r, const BandTable &bands, const BandContext &ctx, const char *family,
                     const std::string &path, const Distribution &d)
{
    if (d.empty)
        return;
    for (const auto &[name, value] : {std::pair{"mean", d.mean}, {"p50", d.p50}, {"p95", d.p95}, {"p99", d.p99}})
        add(r, bands, ctx, family, path + "." + name, value);
}

} // namespace

void attachUncertainty(CandidateResult &r, const Brief &brief, const Catalog &catalog)
{
    const BandTable &bands = catalog.bands();
    const PerformanceResult &p = r.performance;
    if (bands.empty() || !p.computed)
        return;
    const BandContext ctx = contextOf(brief, r, catalog);
    // The throughput band the cost follows: the figure the replicas and the bill are sized on.
    std::string capacity;
    const char *capacityWords = "";
    if (p.media) {
        add(r, bands, ctx, "throughput", "performance.media.outputs_per_hour", p.media->outputsPerHour);
        add(r, bands, ctx, "throughput", "performance.media.outputs_per_hour_per_gpu", p.media->outputsPerHourPerGpu);
        add(r, bands, ctx, "e2e", "performance.media.seconds_per_output", p.media->secondsPerOutput);
        addDistribution(r, bands, ctx, "e2e", "performance.e2e_s", p.e2e);
        capacity = "performance.media.outputs_per_hour";
        capacityWords = "outputs an hour";
    } else if (p.training) {
        add(r, bands, ctx, "throughput", "performance.training.tokens_per_s", p.training->tokensPerS);
        add(r, bands, ctx, "throughput", "performance.training.tokens_per_s_per_gpu", p.training->tokensPerSPerGpu);
        capacity = "performance.training.tokens_per_s";
        capacityWords = "training tokens/s";
    } else {
        // At an open-loop rate the candidate carries, the load figures are the brief's rate times
        // its lengths, not predictions: their band is the figure itself.
        const bool offered = p.mode == TrafficMode::OpenLoop && !p.overloaded;
        for (const auto &[path, value] : {std::pair{"performance.output_tokens_per_s", p.outputTokensPerS},
                                          {"performance.output_tokens_per_s_per_gpu", p.outputTokensPerSPerGpu},
                                          {"performance.requests_per_s", p.requestsPerS},
                                          {"performance.input_tokens_per_s", p.inputTokensPerS}}) {
            if (!offered) {
                add(r, bands, ctx, "throughput", path, value);
            } else if (value > 0) {
                Band exact;
                exact.figure = exact.p10 = exact.p50 = exact.p90 = value;
                exact.basis = "the brief's offered load, which the candidate carries: set by the request rate, not predicted";
                r.uncertainty[path] = exact;
            }
        }
        add(r, bands, ctx, "throughput", "performance.max_output_tokens_per_s", p.maxOutputTokensPerS);
        if (p.outputTokensPerSWithinSlo)
            add(r, bands, ctx, "throughput", "performance.output_tokens_per_s_within_slo", *p.outputTokensPerSWithinSlo);
        if (p.maxRequestRateWithinSloPerS)
            add(r, bands, ctx, "throughput", "performance.max_request_rate_within_slo_per_s", *p.maxRequestRateWithinSloPerS);
        // An overloaded queue grows without bound: its latencies have no band worth stating.
        if (!p.overloaded) {
            addDistribution(r, bands, ctx, "ttft", "performance.ttft_s", p.ttft);
            addDistribution(r, bands, ctx, "tpot", "performance.tpot_s", p.tpot);
            addDistribution(r, bands, ctx, "e2e", "performance.e2e_s", p.e2e);
        }
        const bool queued = p.maxOutputTokensPerS > 0;
        capacity = queued ? "performance.max_output_tokens_per_s" : "performance.requests_per_s";
        capacityWords = queued ? "capacity (output tokens/s with every request queued)" : "requests/s";
    }

    // The cost per accepted output of a GPU route is its bill over its outputs; the bill is sized
    // on throughput, so it moves inversely with it (P10 throughput gives the P90 cost). The API's
    // price and the fixed lines (platform labour, storage) do not move: this overstates the band
    // of an option whose bill they dominate, and says so.
    const auto thr = r.uncertainty.find(capacity);
    if (thr != r.uncertainty.end() && r.cost.computed) {
        const Band &t = thr->second;
        const auto carry = [&](const std::string &path, double value) {
            if (!(value > 0) || !std::isfinite(value))
                return;
            Band b;
            b.figure = value;
            b.p10 = value * t.figure / t.p90;
            b.p50 = value * t.figure / t.p50;
            b.p90 = value * t.figure / t.p10;
            b.basis = fmt::format("the cost moves inversely with the {} (its band: {}); the fixed lines (labour, storage) are "
                                  "taken to move with it, which overstates the band where they dominate",
                                  capacityWords, t.basis);
            b.outside = t.outside;
            r.uncertainty[path] = std::move(b);
        };
        for (std::size_t i = 0; i < r.cost.options.size(); ++i) {
            const CostOption &o = r.cost.options[i];
            carry(fmt::format("cost.options.{}.cost_per_accepted_output_usd", i), o.costPerAcceptedOutput);
            if (o.breakEvenRequestsPerMonthVsApi)
                carry(fmt::format("cost.options.{}.break_even_requests_per_month_vs_api", i), *o.breakEvenRequestsPerMonthVsApi);
        }
        if (const CostOption *best = r.cost.cheapest())
            carry("cost.cost_per_accepted_output_usd", best->costPerAcceptedOutput);
    }

    // The SLO at the pessimistic end: a p99 target met by the estimate but not by its band's P90.
    const Slo &slo = brief.workload.slo;
    // (Field-less: what settles it is a measured run on the Evidence page, not a looser target.)
    for (const auto &[path, target, words] :
         {std::tuple{"performance.ttft_s.p99", slo.ttftP99S, "time to first token"},
          std::tuple{"performance.tpot_s.p99", slo.tpotP99S, "time per output token"},
          std::tuple{"performance.e2e_s.p99", slo.e2eP99S, "end-to-end latency"}}) {
        const auto it = r.uncertainty.find(path);
        const double estimate = path == std::string("performance.ttft_s.p99") ? p.ttft.p99
                                : path == std::string("performance.tpot_s.p99") ? p.tpot.p99 : p.e2e.p99;
        if (!target || it == r.uncertainty.end() || estimate > *target || it->second.p90 <= *target)
            continue;
        r.warnings.push_back(makeMessage(
            "slo-at-band-edge", "",
            WB_MESSAGE("Messages", "the p99 {what} meets its target at the estimate ({estimate_s:.3f} s against "
                       "{target_s:.3f} s) but not at the pessimistic end of its band ({p90_s:.3f} s at P90): measure it "
                       "before committing"),
            {{"what", std::string(words)}, {"estimate_s", estimate}, {"target_s", *target}, {"p90_s", it->second.p90}}));
    }

    // The brief outside the data, once per candidate.
    for (const auto &[path, band] : r.uncertainty) {
        if (band.outside.empty())
            continue;
        std::string what;
        for (const std::string &o : band.outside)
            what += (what.empty() ? "" : "; ") + o;
        const auto data = bands.stacks.find(std::string(enumName(r.candidate.servingStack)));
        const bool dated = data != bands.stacks.end() && !data->second.firstDate.empty();
        r.warnings.push_back(makeMessage(
            "outside-calibration-data", r.candidate.servingStackVersion.empty() ? "" : candidateField("serving_stack_version"),
            dated ? WB_MESSAGE("Messages", "this candidate lies outside the measurements the model was calibrated on ({what}; "
                               "its stack's data runs from {first_date} to {last_date}): its bands are wider and its figures "
                               "less certain")
                  : WB_MESSAGE("Messages", "this candidate lies outside the measurements the model was calibrated on ({what}): its "
                               "bands are wider and its figures less certain"),
            {{"what", what}, {"first_date", dated ? data->second.firstDate : std::string()},
             {"last_date", dated ? data->second.lastDate : std::string()}}));
        break;
    }
}

std::optional<Message> bandReason(const Brief &brief, const Results &results)
{
    const auto &rec = results.cost.recommendation;
    if (!rec)
        return std::nullopt;
    const std::optional<CostOption> &api = results.cost.api;
    const bool apiWeighed = api && detail::apiUsableFor(brief) && std::isfinite(api->costPerAcceptedOutput);
    // The band of a candidate's option's cost, by the option's pricing term and provider.
    const auto costBand = [&](std::size_t candidate, std::optional<PricingTerm> term, const std::string &provider) -> const Band * {
        const CandidateResult &d = deployment(results.results.at(candidate));
        for (std::size_t i = 0; i < d.cost.options.size(); ++i)
            if (d.cost.options[i].term == term && d.cost.options[i].provider == provider) {
                const auto it = d.uncertainty.find(fmt::format("cost.options.{}.cost_per_accepted_output_usd", i));
                return it == d.uncertainty.end() ? nullptr : &it->second;
            }
        return nullptr;
    };
    if (rec->route == Route::Api) {
        // The GPU option that comes nearest the API at its optimistic end.
        const Band *nearest = nullptr;
        std::string label;
        // Each candidate's cheapest current price, as the cost chart and the API's reason weigh it.
        for (std::size_t c = 0; c < results.results.size(); ++c) {
            const CandidateResult &d = deployment(results.results[c]);
            if (const CostOption *o = d.cost.cheapest())
                if (const Band *b = costBand(c, o->term, o->provider); b && (!nearest || b->p10 < nearest->p10)) {
                    nearest = b;
                    label = fmt::format("{} {} ({}, {})", o->gpus, d.gpuName, termWords(*o->term), o->provider);
                }
        }
        if (!nearest)
            return std::nullopt;
        if (nearest->p10 < rec->costPerAcceptedOutput)
            return makeMessage("band-api-flips", "",
                               WB_MESSAGE("Messages", "at P90 throughput (its cost's P10) {option} would cost ${gpu_cost:.6f} per "
                                          "{unit}, below the model API's ${api_cost:.6f}: the choice rests on a benchmark"),
                               {{"unit", rec->unit}, {"option", label}, {"gpu_cost", nearest->p10}, {"api_cost", rec->costPerAcceptedOutput}});
        return makeMessage("band-holds", "",
                           WB_MESSAGE("Messages", "holds across the throughput band: even at its cheapest (its cost's P10, at P90 "
                                      "throughput) the best GPU option costs ${gpu_cost:.6f} per {unit} against the model "
                                      "API's ${api_cost:.6f}"),
                           {{"unit", rec->unit}, {"gpu_cost", nearest->p10}, {"api_cost", rec->costPerAcceptedOutput}});
    }
    if (!rec->candidate || rec->route == Route::Hybrid)
        return std::nullopt;
    const Band *b = costBand(*rec->candidate, rec->term, rec->provider);
    if (!b)
        return std::nullopt;
    if (apiWeighed && api->costPerAcceptedOutput < b->p90)
        return makeMessage("band-api-cheaper-at-p10", "",
                           WB_MESSAGE("Messages", "at P10 throughput (its cost's P90) this option costs ${p90_cost:.6f} per "
                                      "{unit} and the model API (${api_cost:.6f}) is cheaper: benchmark before committing"),
                           {{"unit", rec->unit}, {"p90_cost", b->p90}, {"api_cost", api->costPerAcceptedOutput}});
    return apiWeighed ? makeMessage("band-holds", "",
                                    WB_MESSAGE("Messages", "holds across the throughput band: ${p10_cost:.6f} to ${p90_cost:.6f} per "
                                               "{unit} (its cost's P10 to P90), below the model API's ${api_cost:.6f}"),
                                    {{"unit", rec->unit}, {"p10_cost", b->p10}, {"p90_cost", b->p90}, {"api_cost", api->costPerAcceptedOutput}})
                      : makeMessage("band-range", "",
                                    rec->perRun
                                        ? WB_MESSAGE("Messages", "across its throughput band this option costs ${p10_cost_text} (P90 "
                                                     "throughput) to ${p90_cost_text} (P10) per accepted run")
                                        : WB_MESSAGE("Messages", "across its throughput band this option costs ${p10_cost:.6f} (P90 "
                                                     "throughput) to ${p90_cost:.6f} (P10) per {unit}"),
                                    {{"unit", rec->unit}, {"p10_cost", b->p10}, {"p90_cost", b->p90}, {"p10_cost_text", usdPerOutput(b->p10)},
                                     {"p90_cost_text", usdPerOutput(b->p90)}});
}

} // namespace wb
