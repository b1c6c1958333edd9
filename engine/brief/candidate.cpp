// A candidate's label, JSON and layout changes (brief.h).
#include "brief/brief.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace wb {

std::string candidateLabel(const Candidate &c)
{
    std::string label = std::to_string(c.gpus) + "x " + c.gpu + " TP" + std::to_string(c.tensorParallel);
    if (c.pipelineParallel > 1)
        label += " PP" + std::to_string(c.pipelineParallel);
    if (c.contextParallel > 1)
        label += " CP" + std::to_string(c.contextParallel);
    if (c.weightsPrecision)
        label += " " + std::string(enumName(*c.weightsPrecision));
    return label;
}

Brief briefFor(const Brief &brief, const Candidate &candidate)
{
    Brief b = brief;
    if (candidate.weightsPrecision)
        b.workload.weightsPrecision = *candidate.weightsPrecision;
    return b;
}

std::string candidateJson(const Candidate &c)
{
    nlohmann::ordered_json j = {{"gpu", c.gpu},
                                {"gpus", c.gpus},
                                {"tensor_parallel", c.tensorParallel},
                                {"pipeline_parallel", c.pipelineParallel},
                                {"serving_stack", enumName(c.servingStack)}};
    // Training layouts only: an inference candidate's JSON stays as it always was.
    if (c.contextParallel > 1)
        j["context_parallel"] = c.contextParallel;
    if (c.virtualPipeline > 1)
        j["virtual_pipeline"] = c.virtualPipeline;
    if (c.weightsPrecision)
        j["weights_precision"] = enumName(*c.weightsPrecision);
    if (!c.servingStackVersion.empty())
        j["serving_stack_version"] = c.servingStackVersion;
    if (c.network)
        j["network"] = {{"kind", c.network->kind}, {"bytes_per_s_per_gpu", c.network->bytesPerSPerGpu}};
    return j.dump();
}

Candidate withGpuCount(Candidate c, int gpus)
{
    c.gpus = std::max(1, gpus);
    if (c.gpus % c.gpusPerReplica() != 0) {
        c.pipelineParallel = 1;
        c.virtualPipeline = 1;
    }
    if (c.gpus % c.gpusPerReplica() != 0)
        c.contextParallel = 1;
    while (c.tensorParallel > 1 && c.gpus % c.gpusPerReplica() != 0)
        c.tensorParallel /= 2;
    if (c.gpus % c.gpusPerReplica() != 0)
        c.tensorParallel = 1;
    return c;
}

Candidate withLayout(Candidate c, int tensorParallel, int pipelineParallel)
{
    c.tensorParallel = std::max(1, tensorParallel);
    c.pipelineParallel = std::max(1, pipelineParallel);
    if (c.pipelineParallel == 1)
        c.virtualPipeline = 1;
    const int perReplica = c.gpusPerReplica();
    c.gpus = std::max(perReplica, (c.gpus + perReplica - 1) / perReplica * perReplica);
    return c;
}

} // namespace wb
