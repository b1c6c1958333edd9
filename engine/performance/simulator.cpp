#include "performance/simulator.h"

#include "core/limits.h"
#include "performance/simulation.h"
#include "performance/trafficdraws.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

namespace wb {

namespace detail {

Simulation::Simulation(const StepModel &model, const SimConfig &config, const TrafficSpec &traffic)
    : m_model(model), m_config(config), m_traffic(traffic)
{
    m_blockTokens = std::max(1, config.kvBlockTokens);
    m_totalBlocks = long(std::floor(config.kvCapacityTokens / m_blockTokens));
    m_watermarkBlocks = m_totalBlocks / 100;
    m_replicas.resize(std::max(1, config.replicas));
    for (Replica &r : m_replicas)
        r.freeBlocks = m_totalBlocks;
    m_warmup = traffic.mode == TrafficMode::Offline ? 0 : int(traffic.warmupFraction * traffic.requests);
    makeRequests();
}

SimResult Simulation::run(const std::stop_token &stop)
{
    const int n = int(m_requests.size());
    std::size_t nextArrival = 0;
    if (m_traffic.mode == TrafficMode::ClosedLoop) {
        m_issued = std::min(n, std::max(1, m_traffic.concurrency));
        for (int i = 0; i < m_issued; ++i)
            m_requests[i].arrival = 0;
    }
    int settled = 0;
    // A stop is checked every 256 events: often enough to end within a millisecond or so,
    // rarely enough to cost nothing measurable.
    for (unsigned events = 0; settled < n; ++events) {
        if ((events & 255u) == 0 && stop.stop_requested()) {
            SimResult stopped;
            stopped.stopped = true;
            return stopped;
        }
        const double tArrival = nextArrivalTime(nextArrival);
        // The next step to end: every busy replica has exactly one entry in the heap.
        int stepping = -1;
        double tStep = kNever;
        if (!m_stepEnds.empty()) {
            tStep = m_stepEnds.top().first;
            stepping = m_stepEnds.top().second;
        }
        if (tArrival == kNever && stepping < 0)
            break;  // nothing can progress (cannot happen: oversized requests are rejected)
        if (tArrival <= tStep) {
            dispatch(int(nextArrival++), tArrival);
        } else {
            m_stepEnds.pop();
            settled += finishStep(stepping, tStep);
            startStep(stepping, tStep);
        }
        settled += m_rejectedNow;
        m_rejectedNow = 0;
    }
    return collect();
}

void Simulation::makeRequests()
{
    const int n = std::max(1, m_traffic.requests);
    m_requests.resize(n);
    const double k = std::max(1e-3, m_traffic.burstiness);
    const std::shared_ptr<const detail::Draws> draws = detail::drawsFor(m_traffic, n, k);
    for (int i = 0; i < n; ++i) {
        Request &r = m_requests[std::size_t(i)];
        r.input = draws->input[std::size_t(i)];
        r.output = draws->output[std::size_t(i)];
        r.prefillTarget = r.input;
    }
    if (m_traffic.mode != TrafficMode::OpenLoop)
        return;  // offline: all at t = 0; closed-loop: issued as others finish
    double t = 0;
    for (int i = 0; i < n; ++i) {
        double rate = m_traffic.ratePerS;
        if (m_traffic.burstMultiplier && m_traffic.burstPeriodS > 0
            && std::fmod(t, m_traffic.burstPeriodS) >= m_traffic.burstPeriodS - m_traffic.burstDurationS)
            rate *= *m_traffic.burstMultiplier;
        // Gamma inter-arrival times with shape k and mean 1/rate (vLLM bench's burstiness):
        // the unit draw times the scale, as std::gamma_distribution(k, scale) computes it.
        t += draws->unitGaps[std::size_t(i)] * (1.0 / (rate * k));
        m_requests[std::size_t(i)].arrival = t;
    }
}

double Simulation::nextArrivalTime(std::size_t next) const
{
    if (next >= m_requests.size())
        return kNever;
    if (m_traffic.mode == TrafficMode::ClosedLoop && int(next) >= m_issued)
        return kNever;
    return m_requests[next].arrival;
}

void Simulation::dispatch(int id, double now)
{
    if (id == m_warmup) {
        m_measureStart = now;
        m_measuring = true;
    }
    Request &q = m_requests[id];
    q.arrival = now;
    int best = 0;
    for (std::size_t i = 1; i < m_replicas.size(); ++i)
        if (m_replicas[i].inFlight < m_replicas[best].inFlight)
            best = int(i);
    q.replica = best;
    Replica &r = m_replicas[best];
    r.waiting.push_back(id);
    ++r.inFlight;
    if (!r.busy)
        startStep(best, now);
}

void Simulation::release(Replica &r, Request &q)
{
    r.freeBlocks += q.blocks;
    q.blocks = 0;
    q.kvTokens = 0;
}

// Recompute preemption: the request gives back its KV and will prefill its prompt and the
// tokens generated so far again.
void Simulation::preempt(Replica &r, int id)
{
    Request &q = m_requests[id];
    release(r, q);
    q.prefilled = 0;
    q.prefillTarget = q.input + q.generated;
    r.waiting.push_front(id);
    ++m_preemptions;
}

void Simulation::startStep(int index, double now)
{
    Replica &r = m_replicas[index];
    r.stepDecodes.clear();
    r.stepPrefills.clear();
    StepBatch batch;
    long budget = m_config.maxBatchedTokens;
    r.stepFast = fastDecodes(r, batch);
    if (r.stepFast) {
        budget -= r.decoding;
        for (std::size_t i = r.running.size() - std::size_t(r.prefilling); i < r.running.size() && budget > 0; ++i)
            schedulePrefillChunk(r, batch, r.running[i], budget);
    } else {
        catchUpAll(r);
        scheduleRunning(r, batch, budget);
    }
    const std::size_t before = r.running.size();
    // New requests are taken in on every receive_interval-th step, or at once by an idle replica.
    if (m_config.receiveIntervalSteps <= 1 || r.running.empty() || r.started % m_config.receiveIntervalSteps == 0)
        admit(r, batch, budget);
    r.admitted = long(r.running.size() - before);
    if (m_config.padToLongest && !r.stepPrefills.empty()) {
        // Every sequence of the step (an encoder's, whole) computes at the longest one's length.
        double longest = 0;
        for (const auto &[id, chunk] : r.stepPrefills)
            longest = std::max(longest, double(chunk));
        const double n = double(r.stepPrefills.size());
        batch.prefillTokens = n * longest;
        batch.attentionPairs = n * longest * longest;
    }

    batch.sequences = int(r.stepDecodes.size() + r.stepPrefills.size()) + (r.stepFast ? int(r.decoding) : 0);
    if (batch.sequences == 0) {
        r.busy = false;
        r.stepEnd = kNever;
        return;
    }
    r.busy = true;
    ++r.started;
    r.stepStart = now;
    r.stepEnd = now + m_model.stepTime(batch);
    m_stepEnds.emplace(r.stepEnd, index);
    ++m_steps;
    m_fastSteps += r.stepFast ? 1 : 0;
    m_batchSum += batch.sequences;
}

// The general scheduler's pass over the running requests: prefill chunks, then decodes, each
// decode taking a KV slot and preempting the newest request when none is free.
void Simulation::scheduleRunning(Replica &r, StepBatch &batch, long &budget)
{
    for (std::size_t i = 0; i < r.running.size() && budget > 0; ++i) {
        const int id = r.running[i];
        Request &q = m_requests[id];
        if (q.prefilled < q.prefillTarget) {
            schedulePrefillChunk(r, batch, id, budget);
            continue;
        }
        // Decode: the newest token's KV entry needs a slot.
        bool preemptedSelf = false;
        while (blocksFor(q.kvTokens + 1) > q.blocks && r.freeBlocks == 0) {
            const int victim = r.running.back();
            r.running.pop_back();
            preempt(r, victim);
            if (victim == id) {
                preemptedSelf = true;
                break;
            }
        }
        if (preemptedSelf)
            break;
        if (blocksFor(q.kvTokens + 1) > q.blocks) {
            ++q.blocks;
            --r.freeBlocks;
        }
        r.stepDecodes.push_back(id);
        batch.decodeSequences += 1;
        batch.kvTokensRead += kvRead(q.kvTokens + 1);
        budget -= 1;
    }
}

// The next chunk of a running request's prefill, as far as the budget and the free blocks go.
void Simulation::schedulePrefillChunk(Replica &r, StepBatch &batch, int id, long &budget)
{
    const Request &q = m_requests[id];
    long chunk = std::min<long>(q.prefillTarget - q.prefilled, budget);
    const long room = (q.blocks + r.freeBlocks) * m_blockTokens - q.kvTokens;
    chunk = std::min(chunk, room);
    if (chunk <= 0)
        return;
    schedulePrefill(r, batch, id, int(chunk));
    budget -= chunk;
}

// New requests, first come first served, while the token budget, the sequence limit and the
// free KV blocks allow.
void Simulation::admit(Replica &r, StepBatch &batch, long budget)
{
    while (!r.waiting.empty() && budget > 0 && int(r.running.size()) < m_config.maxSequences) {
        const int id = r.waiting.front();
        Request &q = m_requests[id];
        if (blocksFor(long(q.input) + q.output) > m_totalBlocks) {
            // Its context alone exceeds the whole KV budget: no schedule can serve it.
            r.waiting.pop_front();
            q.rejected = true;
            q.done = true;
            --r.inFlight;
            ++m_rejectedNow;
            issueNext(q.arrival);
            continue;
        }
        // An encoder's sequence runs whole: it waits for a step with room, unless it is alone.
        if (m_config.encoder && q.prefillTarget > budget && !r.stepPrefills.empty())
            break;
        const long chunk = m_config.encoder ? long(q.prefillTarget) : std::min<long>(q.prefillTarget, budget);
        const long reserve = m_config.reserveFullContext ? blocksFor(long(q.input) + q.output)
                                                         : blocksFor(q.prefillTarget) + m_watermarkBlocks;
        if (reserve > r.freeBlocks)
            break;  // first come first served: later requests wait behind it
        r.waiting.pop_front();
        r.running.push_back(id);
        if (m_config.reserveFullContext) {
            q.blocks = blocksFor(long(q.input) + q.output);
            r.freeBlocks -= q.blocks;
        }
        schedulePrefill(r, batch, id, int(chunk));
        budget -= chunk;
    }
}

double Simulation::kvRead(long tokens) const
{
    return m_config.slidingWindow ? std::min<double>(double(tokens), *m_config.slidingWindow) : double(tokens);
}

void Simulation::schedulePrefill(Replica &r, StepBatch &batch, int id, int chunk)
{
    Request &q = m_requests[id];
    const long need = blocksFor(q.kvTokens + chunk) - q.blocks;
    if (need > 0) {
        q.blocks += need;
        r.freeBlocks -= need;
    }
    r.stepPrefills.emplace_back(id, chunk);
    batch.prefillTokens += chunk;
    // The chunk reads the prefix already cached and attends causally within itself (an
    // encoder's whole sequence attends both ways).
    const double prefix = double(q.prefilled);
    batch.kvTokensRead += kvRead(q.prefilled);
    batch.attentionPairs += m_config.encoder ? double(chunk) * chunk : chunk * prefix + double(chunk) * (chunk + 1) / 2;
}

// Emits one token of q at `now`; returns true when q is complete.
bool Simulation::emit(Request &q, double now)
{
    if (q.generated == 0) {
        q.firstToken = now;
    } else if (m_measuring) {
        m_gaps.add(now - q.lastToken);
    }
    q.lastToken = now;
    ++q.generated;
    ++m_tokensEmitted;
    return q.generated >= q.output;
}

// The step's tokens are emitted (prefills first, then decodes in running order) and its
// requests complete afterwards; each completion records the output tokens emitted when its
// own last token was (the throughput is measured on those records), so a decode from the
// summary records what the same decode in the general pass would have.
int Simulation::finishStep(int index, double now)
{
    Replica &r = m_replicas[index];
    r.busy = false;
    r.stepEnd = kNever;
    std::vector<std::pair<int, long long>> &finished = m_finishedNow;  // request, tokens by then
    finished.clear();
    for (const auto &[id, chunk] : r.stepPrefills) {
        Request &q = m_requests[id];
        q.prefilled += chunk;
        q.kvTokens += chunk;
        if (q.prefilled < q.prefillTarget)
            continue;  // a chunked prefill goes on
        if (q.output == 0) {
            q.firstToken = now;  // prefill-only (embedding): the answer is ready
            finished.emplace_back(id, m_tokensEmitted);
        } else if (emit(q, now)) {
            finished.emplace_back(id, m_tokensEmitted);
        }
    }
    const std::size_t outsideSummary = finished.size();
    if (r.stepFast) {
        // The summary's requests are the first `decoding` of running, in its order.
        const long long before = m_tokensEmitted;
        ++r.fastSteps;
        r.lastFastEnd = now;
        m_tokensEmitted += r.decoding;
        if (m_measuring)
            m_gaps.add(now - r.stepStart, r.decoding);
        while (!r.finishing.empty() && r.finishing.front().first <= r.fastSteps) {
            const int id = r.finishing.front().second;
            std::pop_heap(r.finishing.begin(), r.finishing.end(), std::greater<>());
            r.finishing.pop_back();
            Request &q = m_requests[id];
            leave(r, q);
            catchUp(r, q);
            const auto at = std::find(r.running.begin(), r.running.end(), id) - r.running.begin();
            finished.emplace_back(id, before + at + 1);
        }
        std::sort(finished.begin() + std::ptrdiff_t(outsideSummary), finished.end(),
                  [](const auto &a, const auto &b) { return a.second < b.second; });
    }
    for (int id : r.stepDecodes) {
        Request &q = m_requests[id];
        q.kvTokens += 1;
        if (emit(q, now))
            finished.emplace_back(id, m_tokensEmitted);
    }
    for (const auto &[id, tokens] : finished)
        complete(r, m_requests[id], now, tokens);
    if (!finished.empty()) {
        if (r.stepFast && finished.size() * 8 < r.running.size()) {
            for (const auto &[id, tokens] : finished)
                r.running.erase(std::find(r.running.begin(), r.running.end(), id));
        } else {
            r.running.erase(std::remove_if(r.running.begin(), r.running.end(),
                                           [&](int id) { return m_requests[id].done; }),
                            r.running.end());
        }
    }
    if (!r.stepFast) {
        summarise(r, now);
    } else {
        // The requests outside the summary (still prefilling before the step, or admitted by
        // it) are the last of `running`: those whose first token is out join the summary,
        // and the ones still prefilling must follow them all.
        const std::size_t tail = std::size_t(r.prefilling + r.admitted) - outsideSummary;
        long partial = 0;
        for (std::size_t i = r.running.size() - tail; i < r.running.size(); ++i) {
            Request &q = m_requests[r.running[i]];
            if (q.prefilled < q.prefillTarget) {
                ++partial;
            } else if (partial > 0 || q.lastToken != now || !join(r, q, r.running[i])) {
                catchUpAll(r);
                partial = 0;
                break;
            }
        }
        r.prefilling = partial;
    }
    r.stepFast = false;
    return int(finished.size());
}

void Simulation::complete(Replica &r, Request &q, double now, long long tokensEmitted)
{
    q.finish = now;
    q.done = true;
    release(r, q);
    --r.inFlight;
    m_lastFinish = std::max(m_lastFinish, now);
    ++m_completed;
    m_progress.push_back({now, tokensEmitted, m_completed});
    issueNext(now);
}

// Closed loop: a finished (or refused) request's client sends the next one at once.
void Simulation::issueNext(double now)
{
    if (m_traffic.mode != TrafficMode::ClosedLoop || m_issued >= int(m_requests.size()))
        return;
    m_requests[m_issued].arrival = now;
    ++m_issued;
}

} // namespace detail

Distribution distributionOf(std::vector<double> values)
{
    Distribution d;
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }), values.end());
    if (values.empty())
        return d;
    d.empty = false;
    d.mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    // Nearest ranks by selection, highest first, each within the part below the last: linear
    // time where a sort took n log n (a run's four distributions were a tenth of its time).
    const auto index = [&](double q) {
        return std::min(std::size_t(std::max(1.0, std::ceil(q * double(values.size())))) - 1, values.size() - 1);
    };
    const auto rank = [&](double q, std::size_t end) {
        const auto at = values.begin() + std::ptrdiff_t(index(q));
        std::nth_element(values.begin(), at, values.begin() + std::ptrdiff_t(end));
        return *at;
    };
    d.p99 = rank(0.99, values.size());
    d.p95 = rank(0.95, index(0.99) + 1);
    d.p50 = rank(0.50, index(0.95) + 1);
    return d;
}

SimResult simulate(const StepModel &model, const SimConfig &config, const TrafficSpec &traffic, std::stop_token stop)
{
    if (config.replicas <= limits::kSimulatedReplicas)
        return detail::Simulation(model, config, traffic).run(stop);
    // A representative set of replicas at the same load each: arrivals go to the least-loaded
    // replica, so each of N replicas sees 1/N of the rate (or of the users); k of them see k/N.
    // Latencies are those of one replica at that load; throughputs scale back by N/k.
    const int k = limits::kSimulatedReplicas;
    const double share = double(k) / config.replicas;
    SimConfig some = config;
    some.replicas = k;
    TrafficSpec part = traffic;
    part.ratePerS = traffic.ratePerS * share;
    part.concurrency = std::max(1, int(std::ceil(traffic.concurrency * share)));
    SimResult r = detail::Simulation(model, some, part).run(stop);
    const double scale = 1.0 / share;
    r.outputTokensPerS *= scale;
    r.inputTokensPerS *= scale;
    r.requestsPerS *= scale;
    r.replicasRepresented = config.replicas;
    return r;
}

} // namespace wb
