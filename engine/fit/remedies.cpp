// What would make a training layout fit as stated (FitResult::remedies): the fit advises before
// it re-lays out. Each change to the set-up a framework offers for memory is tried alone at the
// stated layout, then all of them together when none does alone.
#include "fit/memorymodel.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace wb {

namespace {

std::vector<std::string> splitOptions(const std::string &option)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= option.size()) {
        const std::size_t end = std::min(option.find('+', start), option.size());
        parts.push_back(option.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

} // namespace

TrainingSpec withRemedy(TrainingSpec t, const std::string &option)
{
    for (const std::string &o : splitOptions(option)) {
        if (o == "sequence-parallel")
            t.sequenceParallel = true;
        else if (o == "full-recompute")
            t.recompute = Recompute::Full;
        else if (o == "activation-offload")
            t.activationOffload = true;
        else if (o == "optimizer-offload")
            t.optimizerPlacement = OptimizerPlacement::CpuOffload;
        else if (o == "zero1")
            t.sharding = Sharding::Zero1;
        else if (o == "zero2")
            t.sharding = Sharding::Zero2;
        else if (o == "fsdp")
            t.sharding = Sharding::Fsdp;
    }
    return t;
}

std::string remedyText(const std::string &option)
{
    const std::vector<std::string> parts = splitOptions(option);
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string &o = parts[i];
        const char *name = o == "sequence-parallel"    ? "sequence parallelism"
                           : o == "full-recompute"     ? "full activation recomputation"
                           : o == "activation-offload" ? "activation offload to the host"
                           : o == "optimizer-offload"  ? "the optimizer on the CPU"
                           : o == "zero1"              ? "ZeRO-1 (optimizer states sharded)"
                           : o == "zero2"              ? "ZeRO-2 (gradients sharded too)"
                           : o == "fsdp"               ? "FSDP (parameters sharded too)"
                                                       : "an unknown option";
        text += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + std::string(name);
    }
    return text;
}

namespace fitdetail {

std::vector<FitRemedy> trainingRemedies(const Workload &w, const Assumptions &a, const GpuSpec &gpu, ServingStack stack,
                                        const Shape &shape, double statedNeed)
{
    const TrainingSpec &t = *w.training;
    std::vector<std::string> options;
    if (shape.tp > 1 && !t.sequenceParallelAt(shape.tp))
        options.push_back("sequence-parallel");
    if (t.recompute != Recompute::Full && !t.activationOffload)
        options.push_back("full-recompute");
    if (!t.activationOffload)
        options.push_back("activation-offload");
    if (t.optimizerPlacement == OptimizerPlacement::Gpu)
        options.push_back("optimizer-offload");
    const bool fullySharded = t.sharding == Sharding::Zero3 || t.sharding == Sharding::Fsdp;
    if (shape.dp * shape.cp > 1 && !fullySharded) {
        if (t.sharding == Sharding::None)
            options.push_back("zero1");
        if (t.sharding == Sharding::None || t.sharding == Sharding::Zero1)
            options.push_back("zero2");
        options.push_back("fsdp");
    }

    std::vector<FitRemedy> out;
    const auto tryOption = [&](const std::string &option) {
        Workload changed = w;
        changed.training = withRemedy(t, option);
        const MemoryModel model(changed, a, gpu, stack);
        const Estimate e = model.estimate(shape);
        const double need = e.stages[std::size_t(e.busiest)].total();
        if (need < statedNeed * 0.999) {  // only what saves memory
            FitRemedy r;
            r.option = option;
            r.perGpuBytes = std::uint64_t(std::llround(need));
            r.fits = e.fits;
            out.push_back(r);
        }
        return e.fits;
    };
    std::vector<std::string> fitting;
    for (const std::string &o : options)
        if (tryOption(o))
            fitting.push_back(o);
    // Combinations, smallest first, of at most one sharding each; only those no smaller fitting
    // combination is part of (a user reaches for the fewest changes).
    const auto isSharding = [](const std::string &o) { return o == "zero1" || o == "zero2" || o == "fsdp"; };
    const std::size_t n = options.size();
    for (std::size_t size = 2; size <= n; ++size) {
        for (unsigned mask = 0; mask < (1u << n); ++mask) {
            if (std::size_t(std::popcount(mask)) != size)
                continue;
            std::vector<std::string> parts;
            for (std::size_t i = 0; i < n; ++i)
                if (mask & (1u << i))
                    parts.push_back(options[i]);
            if (std::count_if(parts.begin(), parts.end(), isSharding) > 1)
                continue;
            const bool covered = std::any_of(fitting.begin(), fitting.end(), [&](const std::string &f) {
                const std::vector<std::string> fp = splitOptions(f);
                return std::all_of(fp.begin(), fp.end(),
                                   [&](const std::string &p) { return std::find(parts.begin(), parts.end(), p) != parts.end(); });
            });
            if (covered)
                continue;
            std::string option;
            for (const std::string &p : parts)
                option += (option.empty() ? "" : "+") + p;
            Workload changed = w;
            changed.training = withRemedy(t, option);
            if (MemoryModel(changed, a, gpu, stack).estimate(shape).fits && tryOption(option))
                fitting.push_back(option);
        }
    }
    if (fitting.empty() && n > 1) {
        // Nothing fits: say how far everything at once (the strongest sharding) gets.
        std::string all;
        for (const std::string &o : options)
            if (o != "zero1" && o != "zero2")
                all += (all.empty() ? "" : "+") + o;
        if (all.find('+') != std::string::npos)
            tryOption(all);
    }
    return out;
}

} // namespace fitdetail
} // namespace wb
