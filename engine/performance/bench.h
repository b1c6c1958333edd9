// One candidate's simulation set-up for the performance engine (performance.cpp): the step
// model, the scheduler limits and the request shape, and the offline, open-loop and closed-loop
// runs made from them. Internal to the engine's performance library.
#pragma once

#include "brief/brief.h"
#include "fit/fit.h"
#include "performance/performance.h"
#include "performance/simulator.h"
#include "performance/stepmodel.h"

#include <algorithm>
#include <stop_token>

namespace wb::detail {

// One candidate's simulation set-up: the step model, the scheduler limits and the request shape.
class Bench
{
public:
    Bench(const Brief &brief, const Candidate &cand, const StepModel &model, const FitResult &fit,
          std::stop_token stop, const SimulationBudget &budget)
        : m_brief(brief), m_model(model), m_stop(std::move(stop)), m_budget(budget)
    {
        const Assumptions &a = brief.assumptions;
        const Workload &w = brief.workload;
        m_config.replicas = std::max(1, cand.replicas());
        const bool large = cand.servingStack == ServingStack::Trtllm || cand.servingStack == ServingStack::Sglang;
        m_config.maxSequences = int(a.value(large ? Assumption::TrtllmSglangMaxBatch : Assumption::MaxNumSeqs));
        m_config.maxBatchedTokens = int(a.value(Assumption::MaxNumBatchedTokens));
        m_config.receiveIntervalSteps = int(a.value(Assumption::SchedulerRecvInterval));
        m_config.kvCapacityTokens = fit.kvCacheCapacityTokensPerReplica.value_or(0);
        m_config.kvBlockTokens = int(a.value(Assumption::KvBlockTokens));
        m_config.slidingWindow = w.model.slidingWindow;
        m_config.reserveFullContext = cand.servingStack == ServingStack::Trtllm;
        m_config.encoder = w.kind == WorkloadKind::Embedding;
        m_config.padToLongest = m_config.encoder && !packsEncoderBatches(cand.servingStack);

        m_base.requests = int(a.value(Assumption::SimulatedRequests));
        m_base.seed = std::uint64_t(a.value(Assumption::SimulationSeed));
        m_base.warmupFraction = a.value(Assumption::WarmupFraction);
        const int maxContext = w.model.maxContext > 0 ? w.model.maxContext : (1 << 30);
        m_base.input = {w.inputTokens, w.inputTokensP95, maxContext, 1};
        if (w.kind != WorkloadKind::Embedding)
            m_base.output = {w.outputTokens, w.outputTokensP95, maxContext, 1};
        m_base.burstiness = w.traffic.burstiness;
    }

    SimConfig config(int replicas) const
    {
        SimConfig c = m_config;
        c.replicas = replicas;
        return c;
    }
    int replicas() const { return m_config.replicas; }

    SimResult offline(int replicas) const
    {
        TrafficSpec t = m_base;
        t.mode = TrafficMode::Offline;
        // Enough requests that the steady part of the run is several batches long on every
        // replica (three batches each, at most 20,000 requests): each replica holds at most
        // maxSequences, or what its KV cache holds.
        const double context = std::max(1.0, t.input.mean + t.output.mean);
        const double batch = std::min<double>(m_config.maxSequences, m_config.kvCapacityTokens / context);
        t.requests = int(std::clamp(3.0 * replicas * batch, std::min<double>(t.requests, m_budget.offlineMaxRequests),
                                    double(m_budget.offlineMaxRequests)));
        return run(config(replicas), t);
    }
    // An open loop must run for several request lifetimes, or a queue that grows slowly looks
    // stable and the fill dominates: six lifetimes of arrivals, the first left out as warm-up,
    // at least simulated_requests and at most 12,000 requests.
    void setRequestLife(double seconds) { m_lifeS = seconds; }
    SimResult openLoop(double rate, int replicas, bool withBursts = false) const
    {
        TrafficSpec t = m_base;
        t.mode = TrafficMode::OpenLoop;
        t.ratePerS = rate;
        t.requests = int(std::clamp(6.0 * rate * m_lifeS, std::min<double>(t.requests, m_budget.openLoopMaxRequests),
                                    double(m_budget.openLoopMaxRequests)));
        t.warmupFraction = std::max(t.warmupFraction, std::min(0.5, rate * m_lifeS / t.requests));
        if (withBursts) {
            t.burstMultiplier = m_brief.workload.traffic.burstMultiplier;
            t.burstDurationS = m_brief.workload.traffic.burstDurationS;
            t.burstPeriodS = m_brief.workload.traffic.burstPeriodS;
        }
        return run(config(replicas), t);
    }
    SimResult closedLoop(int concurrency) const
    {
        TrafficSpec t = m_base;
        t.mode = TrafficMode::ClosedLoop;
        t.concurrency = concurrency;
        // A benchmark's run: its prompts, all measured from an idle server (the first wave too).
        if (const auto prompts = m_brief.workload.traffic.prompts) {
            t.requests = *prompts;
            t.warmupFraction = 0;
        }
        return run(config(m_config.replicas), t);
    }
    const TrafficSpec &base() const { return m_base; }
    bool cancelled() const { return m_stop.stop_requested(); }

private:
    SimResult run(const SimConfig &config, const TrafficSpec &traffic) const
    {
        return cancelled() ? SimResult{} : simulate(m_model, config, traffic, m_stop);
    }

    const Brief &m_brief;
    const StepModel &m_model;
    std::stop_token m_stop;
    SimulationBudget m_budget;
    double m_lifeS = 0;
    SimConfig m_config;
    TrafficSpec m_base;
};

} // namespace wb::detail
