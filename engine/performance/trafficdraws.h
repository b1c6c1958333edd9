// The random draws of a simulated run (simulator.cpp): each request's prompt and answer lengths,
// then, for an open loop, each unit-scale gamma inter-arrival draw, in the order one generator
// seeded with the traffic's seed makes them.
#pragma once

#include "performance/simulator.h"

#include <memory>
#include <vector>

namespace wb::detail {

// The random draws of a run: each request's lengths, then (open loop) each unit-scale gamma
// inter-arrival draw, in the order one generator seeded with the seed makes them. A capacity
// search, a load curve and a layout search run the same traffic at many rates and on many
// candidates: the draws depend only on the seed, the count and the shapes, so they are made once
// and shared (a run at another rate scales the gaps). The same numbers as drawing them each time,
// bit for bit: std::gamma_distribution(k, scale) returns its unit draw times the scale.
struct Draws
{
    std::vector<int> input, output;
    std::vector<double> unitGaps;   // open loop only
};

// The draws of n requests of `traffic` with gamma shape k, made once and shared between threads.
std::shared_ptr<const Draws> drawsFor(const TrafficSpec &traffic, int n, double k);

} // namespace wb::detail
