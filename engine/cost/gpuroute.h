// Private to cost/: the GPU route's monthly bill at a volume, for one price of one candidate:
// replicas sized for the peak, hours billed under the brief's billing model (always on, a
// scheduled window, autoscaled, serverless; commitments every hour), cold starts, spot
// interruptions, commercial terms and the cost lines. cost.cpp makes one per price and asks it
// for the brief's volume, the break-even chart's volumes and the hybrid's base.
#pragma once

#include "brief/brief.h"
#include "catalog/catalog.h"
#include "cost/cost.h"

#include <optional>
#include <string>

namespace wb::detail {

// Everything the GPU route's cost depends on besides the monthly volume.
struct GpuRoute
{
    const Brief *brief = nullptr;
    const GpuSpec *gpu = nullptr;
    const GpuPrice *price = nullptr;
    int gpusPerReplica = 1;
    double replicaRatePerS = 0;      // requests/s one replica carries within the SLO
    double peakToAverage = 1;
    double weightsGb = 0;
    std::optional<double> onDemandUsdPerGpuHour;  // the cheapest current on-demand offer, for break-evens
    double meanE2eS = 0;             // a request's simulated mean end-to-end latency

    const Assumptions &a() const { return brief->assumptions; }

    // Replicas the peak of a monthly volume needs, uncapped: checked against limits::kReplicas
    // before it becomes a count (a tiny scheduled window once wrapped a billion to 1).
    double replicasNeeded(double requests) const;

    // Seconds a new replica takes to start: its weights read at model_load_gb_per_s, plus the rest.
    double startS() const;

    // Capital per GPU and the monthly ownership parts per GPU at utilization u (purchase only).
    struct Ownership
    {
        double capex = 0, depreciation = 0, power = 0, colocation = 0, support = 0;
        double total() const { return depreciation + power + colocation + support; }
    };
    Ownership ownership(double u) const;

    // The replica-hours rented capacity is billed for a month under the brief's billing model,
    // for `replicas` provisioned for the peak and `busy` replica-hours of work, with how it was
    // worked out. Reservations and purchases are not asked: they are paid every hour.
    struct Billed
    {
        double replicaHours = 0;
        std::string basis;
        // Capacity that follows the load: the share of requests that find no replica ready (the
        // service scaled to zero, or a burst outgrew the replicas running) and wait for one to
        // start (startS()).
        double coldStartShare = 0;
        double coldStartFromBursts = 0;  // of which as bursts begin
    };
    Billed rentedReplicaHours(int replicas, double busy) const;

    // The option at a monthly volume of `requests`. `replicasOverride` fixes the provisioned
    // replicas (the performance engine's answer for the brief's own volume). The work runs in the
    // brief's active hours (a scheduled window, else all month); rented GPUs are billed by the
    // billing model, committed ones every hour. Utilization is the busy share of the billed time.
    CostOption at(double requests, std::optional<int> replicasOverride) const;
};

} // namespace wb::detail
