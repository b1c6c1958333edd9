#include "performance/trafficdraws.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <random>
#include <tuple>

namespace wb::detail {

namespace {

class Lengths
{
public:
    explicit Lengths(const LengthSpec &spec) : m_spec(spec)
    {
        if (spec.p95 && *spec.p95 > spec.mean && spec.mean > 0) {
            // Lognormal with the given mean and 95th percentile: ln(p95/mean) = 1.645 s - s^2/2.
            const double z = 1.6448536;
            const double disc = z * z - 2.0 * std::log(*spec.p95 / spec.mean);
            m_sigma = disc > 0 ? z - std::sqrt(disc) : z;
            m_mu = std::log(spec.mean) - m_sigma * m_sigma / 2;
            m_spread = true;
        }
    }
    int draw(std::mt19937_64 &rng) const
    {
        double v = m_spec.mean;
        if (m_spread)
            v = std::exp(m_mu + m_sigma * std::normal_distribution<double>(0.0, 1.0)(rng));
        return int(std::clamp(std::llround(v), static_cast<long long>(m_spec.min), static_cast<long long>(m_spec.max)));
    }

private:
    LengthSpec m_spec;
    bool m_spread = false;
    double m_mu = 0, m_sigma = 0;
};

} // namespace

std::shared_ptr<const Draws> drawsFor(const TrafficSpec &traffic, int n, double k)
{
    const bool gaps = traffic.mode == TrafficMode::OpenLoop;
    using Key = std::tuple<std::uint64_t, int, double, double, int, int, double, double, int, int, bool, double>;
    const auto spec = [](const std::optional<double> &p95) { return p95.value_or(-1); };
    const Key key{traffic.seed, n, traffic.input.mean, spec(traffic.input.p95), traffic.input.min, traffic.input.max,
                  traffic.output.mean, spec(traffic.output.p95), traffic.output.min, traffic.output.max, gaps,
                  gaps ? k : 0.0};
    static std::mutex mutex;
    static std::map<Key, std::shared_ptr<const Draws>> cache;
    {
        const std::lock_guard lock(mutex);
        if (const auto it = cache.find(key); it != cache.end())
            return it->second;
    }
    auto draws = std::make_shared<Draws>();
    std::mt19937_64 rng(traffic.seed);
    const Lengths input(traffic.input), output(traffic.output);
    draws->input.resize(std::size_t(n));
    draws->output.resize(std::size_t(n));
    for (int i = 0; i < n; ++i) {
        draws->input[std::size_t(i)] = input.draw(rng);
        draws->output[std::size_t(i)] = traffic.output.mean > 0 ? output.draw(rng) : 0;
    }
    if (gaps) {
        draws->unitGaps.resize(std::size_t(n));
        for (double &g : draws->unitGaps)
            g = std::gamma_distribution<double>(k, 1.0)(rng);
    }
    const std::lock_guard lock(mutex);
    // A few dozen kept (each at most a few hundred kilobytes): enough for every shape one
    // evaluation or search uses; a new shape beyond that starts the cache afresh.
    if (cache.size() >= 48)
        cache.clear();
    cache.emplace(key, draws);
    return draws;
}

} // namespace wb::detail
