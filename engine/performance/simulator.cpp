#include "performance/simulator.h"

#include "core/limits.h"
#include "performance/trafficdraws.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <deque>
#include <limits>
#include <numeric>
#include <queue>
#include <memory>

namespace wb {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// Histogram for inter-token gaps: pooled ITLs run to millions of values, which would cost more
// to store and sort than the simulation itself. A bin is the exponent and top 7 mantissa bits of
// the double (128 bins per octave, values within 0.3% of a bin's centre), found with a shift
// instead of a logarithm; from 1 us to about 1000 s.
class GapHistogram
{
public:
    // `weight` gaps of s seconds each (a decode step's gap, once per sequence it advanced).
    void add(double s, long long weight = 1)
    {
        m_count += weight;
        m_sum += s * double(weight);
        m_bins[bin(s)] += weight;
    }
    Distribution distribution() const
    {
        Distribution d;
        if (m_count == 0)
            return d;
        d.empty = false;
        d.mean = m_sum / double(m_count);
        d.p50 = quantile(0.50);
        d.p95 = quantile(0.95);
        d.p99 = quantile(0.99);
        return d;
    }

private:
    static constexpr int kShift = 52 - 7;
    static constexpr int kBins = 30 * 128;
    static std::uint64_t key(double s) { return std::bit_cast<std::uint64_t>(s) >> kShift; }
    static int bin(double s)
    {
        static const std::uint64_t low = key(1e-6);
        const std::uint64_t k = s > 1e-6 ? key(s) : low;
        return int(std::min<std::uint64_t>(k - low, kBins - 1));
    }
    static double centre(int index)
    {
        static const std::uint64_t low = key(1e-6);
        const double a = std::bit_cast<double>((low + std::uint64_t(index)) << kShift);
        const double b = std::bit_cast<double>((low + std::uint64_t(index) + 1) << kShift);
        return 0.5 * (a + b);
    }
    double quantile(double q) const
    {
        const double target = std::ceil(q * double(m_count));
        double seen = 0;
        for (int i = 0; i < kBins; ++i) {
            seen += double(m_bins[i]);
            if (seen >= target)
                return centre(i);
        }
        return centre(kBins - 1);
    }
    std::vector<long long> m_bins = std::vector<long long>(kBins, 0);
    long long m_count = 0;
    double m_sum = 0;
};

struct Request
{
    double arrival = 0;
    int input = 0;
    int output = 0;
    int prefillTarget = 0;  // prompt tokens to compute: the input, or input + generated after preemption
    int prefilled = 0;
    int generated = 0;
    long kvTokens = 0;      // tokens whose KV entries exist
    long blocks = 0;
    double firstToken = -1;
    double lastToken = 0;
    double finish = -1;
    int replica = -1;
    bool done = false;
    bool rejected = false;
    long fastBase = -1;     // in its replica's summary since this many fast steps; -1: not in it
};

struct Replica
{
    std::deque<int> waiting;
    std::vector<int> running;
    long freeBlocks = 0;
    bool busy = false;
    double stepEnd = kNever;
    int inFlight = 0;
    std::vector<int> stepDecodes;
    std::vector<std::pair<int, int>> stepPrefills;  // request, chunk tokens

    // The summary decode steps run from in O(1) (Simulation::fastDecodes).
    bool uniform = false;        // every running request is in the summary
    bool stepFast = false;       // the step under way decoded from the summary
    long fastSteps = 0;          // steps run from the summary since it was taken
    double stepStart = 0;
    double lastFastEnd = 0;
    long decoding = 0;           // requests in the summary
    // Running requests still prefilling, outside the summary: always the last ones of `running`
    // (a request is admitted at the back), so the decodes come first in a step as in the
    // general scheduler's pass.
    long prefilling = 0;
    long admitted = 0;           // requests the step under way admitted
    long uncapped = 0;           // of them, those whose KV read is below the sliding window
    double uncappedKv = 0;       // their KV tokens, less the steps before each joined
    long capSlack = 0;           // steps before the first of them reaches the window
    std::vector<long> blockPhase;  // requests needing a new KV block at step s, by s mod block size
    // (step at whose end the request emits its last token, request), earliest first
    std::vector<std::pair<long, int>> finishing;
};

class Simulation
{
public:
    Simulation(const StepModel &model, const SimConfig &config, const TrafficSpec &traffic)
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

    SimResult run(const std::stop_token &stop)
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

private:
    void makeRequests()
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

    double nextArrivalTime(std::size_t next) const
    {
        if (next >= m_requests.size())
            return kNever;
        if (m_traffic.mode == TrafficMode::ClosedLoop && int(next) >= m_issued)
            return kNever;
        return m_requests[next].arrival;
    }

    void dispatch(int id, double now)
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

    long blocksFor(long tokens) const { return (tokens + m_blockTokens - 1) / m_blockTokens; }

    void release(Replica &r, Request &q)
    {
        r.freeBlocks += q.blocks;
        q.blocks = 0;
        q.kvTokens = 0;
    }

    // Recompute preemption: the request gives back its KV and will prefill its prompt and the
    // tokens generated so far again.
    void preempt(Replica &r, int id)
    {
        Request &q = m_requests[id];
        release(r, q);
        q.prefilled = 0;
        q.prefillTarget = q.input + q.generated;
        r.waiting.push_front(id);
        ++m_preemptions;
    }

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
    bool fastDecodes(Replica &r, StepBatch &batch)
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
    void catchUp(Replica &r, Request &q)
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

    void catchUpAll(Replica &r)
    {
        for (int id : r.running)
            catchUp(r, m_requests[id]);
        r.fastSteps = 0;
        r.prefilling = 0;
        r.uniform = false;
    }

    // q, decoding with its latest token out at this step's end, joins the summary: its figures
    // are kept as they would be had it been there since the summary was taken (fastSteps ago).
    bool join(Replica &r, Request &q, int id, bool heap = true)
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

    void leave(Replica &r, const Request &q)
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
    void summarise(Replica &r, double now)
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

    void startStep(int index, double now)
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
        admit(r, batch, budget);
        r.admitted = long(r.running.size() - before);

        batch.sequences = int(r.stepDecodes.size() + r.stepPrefills.size()) + (r.stepFast ? int(r.decoding) : 0);
        if (batch.sequences == 0) {
            r.busy = false;
            r.stepEnd = kNever;
            return;
        }
        r.busy = true;
        r.stepStart = now;
        r.stepEnd = now + m_model.stepTime(batch);
        m_stepEnds.emplace(r.stepEnd, index);
        ++m_steps;
        m_fastSteps += r.stepFast ? 1 : 0;
        m_batchSum += batch.sequences;
    }

    // The general scheduler's pass over the running requests: prefill chunks, then decodes, each
    // decode taking a KV slot and preempting the newest request when none is free.
    void scheduleRunning(Replica &r, StepBatch &batch, long &budget)
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
    void schedulePrefillChunk(Replica &r, StepBatch &batch, int id, long &budget)
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
    void admit(Replica &r, StepBatch &batch, long budget)
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
            const long chunk = std::min<long>(q.prefillTarget, budget);
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

    double kvRead(long tokens) const
    {
        return m_config.slidingWindow ? std::min<double>(double(tokens), *m_config.slidingWindow) : double(tokens);
    }

    void schedulePrefill(Replica &r, StepBatch &batch, int id, int chunk)
    {
        Request &q = m_requests[id];
        const long need = blocksFor(q.kvTokens + chunk) - q.blocks;
        if (need > 0) {
            q.blocks += need;
            r.freeBlocks -= need;
        }
        r.stepPrefills.emplace_back(id, chunk);
        batch.prefillTokens += chunk;
        // The chunk reads the prefix already cached and attends causally within itself.
        const double prefix = double(q.prefilled);
        batch.kvTokensRead += kvRead(q.prefilled);
        batch.attentionPairs += chunk * prefix + double(chunk) * (chunk + 1) / 2;
    }

    // Emits one token of q at `now`; returns true when q is complete.
    bool emit(Request &q, double now)
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
    int finishStep(int index, double now)
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

    void complete(Replica &r, Request &q, double now, long long tokensEmitted)
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
    void issueNext(double now)
    {
        if (m_traffic.mode != TrafficMode::ClosedLoop || m_issued >= int(m_requests.size()))
            return;
        m_requests[m_issued].arrival = now;
        ++m_issued;
    }

    SimResult collect()
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

    const StepModel &m_model;
    SimConfig m_config;
    TrafficSpec m_traffic;
    std::vector<Request> m_requests;
    std::vector<Replica> m_replicas;
    int m_blockTokens = 16;
    long m_totalBlocks = 0;
    long m_watermarkBlocks = 0;
    int m_warmup = 0;
    int m_issued = 0;
    int m_rejectedNow = 0;
    std::vector<std::pair<int, long long>> m_finishedNow;
    double m_measureStart = 0;
    double m_lastFinish = 0;
    long long m_preemptions = 0;
    long long m_steps = 0;
    long long m_fastSteps = 0;
    double m_batchSum = 0;
    long long m_tokensEmitted = 0;
    long long m_completed = 0;
    struct Progress
    {
        double time;
        long long tokens;       // output tokens emitted by then
        long long completed;    // requests finished by then
    };
    std::vector<Progress> m_progress;  // at every completion
    bool m_measuring = false;
    GapHistogram m_gaps;
    // (step end, replica), earliest first; ties go to the lower replica index.
    std::priority_queue<std::pair<double, int>, std::vector<std::pair<double, int>>, std::greater<>> m_stepEnds;
};

} // namespace

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
        return Simulation(model, config, traffic).run(stop);
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
    SimResult r = Simulation(model, some, part).run(stop);
    const double scale = 1.0 / share;
    r.outputTokensPerS *= scale;
    r.inputTokensPerS *= scale;
    r.requestsPerS *= scale;
    r.replicasRepresented = config.replicas;
    return r;
}

} // namespace wb
