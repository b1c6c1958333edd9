// The serving simulator's O(1) decode summary (see Simulation::fastDecodes) and the statistics
// of a finished run.
#include "performance/simulation.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace wb::detail {

// Decode steps in O(1). Between the events that change a replica's batch in other ways (a
// chunked prefill, a preemption, a request reaching the sliding window) a step decodes the
// same requests, each one token further: its work changes only by the KV read growing one
// token per sequence and the blocks taken by the sequences that cross a block boundary. After
// each general step the running requests are summarised (summarise); while the summary holds,
// the decode part of a step is computed from it without touching the requests, a new request's
// prefill is scheduled as usual and the request joins the summary once its first token is out
// (join), and the requests finishing are found in a heap (finishStep). A request catches up
// with the steps it was advanced by (catchUp) when it finishes or before a general step. The
// batch is the one the general scheduler would have built, to the last token: the sums are of
// whole numbers, exact in double.
bool Simulation::fastDecodes(Replica &r, StepBatch &batch)
{
    if (m_config.stepByStep || !r.uniform || r.decoding == 0)
        return false;
    const long s = r.fastSteps;
    if (s > r.capSlack || r.decoding > m_config.maxBatchedTokens)
        return false;  // a request reaches the sliding window: a general step
    const long crossing = m_config.reserveFullContext ? 0 : r.blockPhase[std::size_t(s % m_blockTokens)];
    if (crossing > r.freeBlocks)
        return false;  // a decode would preempt
    r.freeBlocks -= crossing;
    batch.decodeSequences = double(r.decoding);
    batch.kvTokensRead = r.uncappedKv + double(r.uncapped) * double(s + 1)
        + double(r.decoding - r.uncapped) * (m_config.slidingWindow ? *m_config.slidingWindow : 0);
    return true;
}

// A request in the summary, advanced by fastSteps since it joined at fastBase, takes on those
// steps (its tokens, KV entries, blocks and last token time) and leaves the summary.
void Simulation::catchUp(Replica &r, Request &q)
{
    if (q.fastBase < 0)
        return;
    const long steps = r.fastSteps - q.fastBase;
    if (!m_config.reserveFullContext) {
        // A new block at each step s' < steps where kv + s' is a multiple of the block size.
        const long offset = q.blocks * m_blockTokens - q.kvTokens;
        if (offset < steps)
            q.blocks += 1 + (steps - 1 - offset) / m_blockTokens;
    }
    if (steps > 0) {
        q.generated += int(steps);
        q.kvTokens += steps;
        q.lastToken = r.lastFastEnd;
    }
    q.fastBase = -1;
}

void Simulation::catchUpAll(Replica &r)
{
    for (int id : r.running)
        catchUp(r, m_requests[id]);
    r.fastSteps = 0;
    r.prefilling = 0;
    r.uniform = false;
}

// q, decoding with its latest token out at this step's end, joins the summary: its figures
// are kept as they would be had it been there since the summary was taken (fastSteps ago).
bool Simulation::join(Replica &r, Request &q, int id, bool heap)
{
    const long base = r.fastSteps;
    const long offset = q.blocks * m_blockTokens - q.kvTokens;
    if (!m_config.reserveFullContext && (offset < 0 || offset >= m_blockTokens))
        return false;  // not the block layout decode steps keep: leave it to general steps
    q.fastBase = base;
    ++r.decoding;
    const long window = m_config.slidingWindow ? *m_config.slidingWindow : std::numeric_limits<long>::max();
    if (q.kvTokens < window) {
        ++r.uncapped;
        r.uncappedKv += double(q.kvTokens - base);
        if (m_config.slidingWindow)  // (without one the slack is unbounded, and the sum would overflow)
            r.capSlack = std::min(r.capSlack, window - 1 - q.kvTokens + base);
    }
    if (!m_config.reserveFullContext)
        ++r.blockPhase[std::size_t((offset + base) % m_blockTokens)];
    r.finishing.emplace_back(long(q.output - q.generated) + base, id);
    if (heap)
        std::push_heap(r.finishing.begin(), r.finishing.end(), std::greater<>());
    return true;
}

void Simulation::leave(Replica &r, const Request &q)
{
    const long base = q.fastBase;
    --r.decoding;
    const long window = m_config.slidingWindow ? *m_config.slidingWindow : std::numeric_limits<long>::max();
    if (q.kvTokens < window) {
        --r.uncapped;
        r.uncappedKv -= double(q.kvTokens - base);
    }
    if (!m_config.reserveFullContext)
        --r.blockPhase[std::size_t((q.blocks * m_blockTokens - q.kvTokens + base) % m_blockTokens)];
}

// After a general step: the summary of the running requests, if they all decode with their
// latest token out at `now`.
void Simulation::summarise(Replica &r, double now)
{
    r.fastSteps = 0;
    r.uniform = !r.running.empty();
    r.decoding = 0;
    r.uncapped = 0;
    r.uncappedKv = 0;
    r.capSlack = std::numeric_limits<long>::max();
    r.blockPhase.assign(std::size_t(m_blockTokens), 0);
    r.finishing.clear();
    r.prefilling = 0;
    for (int id : r.running) {
        Request &q = m_requests[id];
        if (q.prefilled < q.prefillTarget) {
            ++r.prefilling;
            continue;
        }
        if (r.prefilling > 0 || q.lastToken != now || q.generated == 0 || !join(r, q, id, false)) {
            for (int other : r.running)
                m_requests[other].fastBase = -1;
            r.uniform = false;
            return;
        }
    }
    std::make_heap(r.finishing.begin(), r.finishing.end(), std::greater<>());
}

SimResult Simulation::collect()
{
    SimResult s;
    s.preemptions = m_preemptions;
    s.steps = m_steps;
    s.fastSteps = m_fastSteps;
    s.meanBatchSequences = m_steps ? m_batchSum / double(m_steps) : 0;
    double inputTokens = 0;
    std::vector<double> ntpots;  // E2E over output tokens, the first token's time included (LLMPerf's ITL)
    ntpots.reserve(m_requests.size());
    for (std::size_t i = 0; i < m_requests.size(); ++i) {
        const Request &q = m_requests[i];
        if (q.rejected) {
            ++s.rejected;
            continue;
        }
        if (int(i) < m_warmup || q.finish < 0)
            continue;
        ++s.completed;
        inputTokens += q.input;
        s.ttfts.push_back(q.firstToken - q.arrival);
        s.e2es.push_back(q.finish - q.arrival);
        s.tpots.push_back(q.output > 1 ? (q.finish - q.firstToken) / (q.output - 1) : NAN);
        if (q.output > 0)
            ntpots.push_back((q.finish - q.arrival) / q.output);
    }
    s.ntpot = distributionOf(ntpots);
    s.ttft = distributionOf(s.ttfts);
    s.tpot = distributionOf(s.tpots);
    s.e2e = distributionOf(s.e2es);
    s.itl = m_gaps.distribution();
    // Throughput over the steady part of the run, between the moments a tenth and nine tenths
    // of the work was done, so that neither the fill nor the drain (fewer requests left than
    // the batch holds) counts. Work is output tokens, or finished requests for prefill-only
    // (embedding) runs.
    s.durationS = std::max(0.0, m_lastFinish - m_measureStart);
    const bool tokens = m_tokensEmitted > 0;
    const auto work = [&](const Progress &p) { return double(tokens ? p.tokens : p.completed); };
    const double total = m_progress.empty() ? 0 : work(m_progress.back());
    const auto reached = [&](double amount) {
        return std::lower_bound(m_progress.begin(), m_progress.end(), amount,
                                [&](const Progress &p, double a) { return work(p) < a; });
    };
    // An open loop is measured instead from the moment the server has filled (the first
    // measured arrival plus a median request's life) to the last arrival, before the drain:
    // a stable server then emits what arrives, an overloaded one less.
    const auto at = [&](double t) {
        return std::lower_bound(m_progress.begin(), m_progress.end(), t,
                                [](const Progress &p, double v) { return p.time < v; });
    };
    if (total > 0 && s.completed > 0) {
        const auto a = reached(0.1 * total), b = reached(0.9 * total);
        double rate = 0;
        const double filled = m_measureStart + s.e2e.p50;
        const double lastArrival = m_requests.back().arrival;
        const auto fa = at(filled), fb = at(lastArrival);
        if (m_traffic.mode == TrafficMode::OpenLoop && fb != m_progress.end() && fa != m_progress.end()
            && fb->time > fa->time && work(*fb) > work(*fa))
            rate = (work(*fb) - work(*fa)) / (fb->time - fa->time);
        else if (b != m_progress.end() && a != m_progress.end() && b->time > a->time)
            rate = (work(*b) - work(*a)) / (b->time - a->time);
        else if (m_lastFinish > 0)
            rate = total / m_lastFinish;  // everything happened in one or two steps
        double outputs = 0;
        for (const Request &q : m_requests)
            outputs += q.done && !q.rejected ? q.output : 0;
        const double meanOutput = outputs / double(m_completed);
        s.requestsPerS = tokens ? rate / meanOutput : rate;
        s.outputTokensPerS = tokens ? rate : 0;
        s.inputTokensPerS = s.requestsPerS * inputTokens / s.completed;
    }
    return s;
}

} // namespace wb::detail
