#include "procurement/plancommands.h"

#include "core/format.h"

#include <fmt/format.h>

#include <cmath>

namespace wb {

namespace detail {

std::string arg(double v)
{
    if (std::abs(v - std::round(v)) < 1e-9 && std::abs(v) < 1e15)
        return fmt::format("{}", std::llround(v));
    return fmt::format("{:.4g}", v);
}

std::string ms(double seconds)
{
    return arg(std::round(seconds * 1000));
}

std::string shellQuote(const std::string &word)
{
    if (!word.empty() &&
        word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:=/+@%") == std::string::npos)
        return word;
    std::string quoted = "'";
    for (char c : word)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

// vllm bench serve (docs.vllm.ai, "vllm bench serve" CLI reference): random prompts of the
// given lengths, --ignore-eos so that every request produces its output length, the brief's SLO
// as goodput, percentiles 50/95/99 and the JSON saved for `gpuwb evidence import` later.
PlanCommand vllmCommand(const std::string &purpose, const Brief &brief, double inputTokens, double outputTokens,
                        const Load &load, int prompts, const std::string &resultFile, const Endpoint &at,
                        Prompts kind)
{
    PlanCommand c{"vllm", {"bench", "serve", "--backend", at.backend, "--base-url", at.url, "--endpoint",
                           "/v1/completions", "--model", "$MODEL"},
                  purpose};
    if (kind == Prompts::Random)
        c.args.insert(c.args.end(), {"--dataset-name", "random", "--random-input-len", arg(std::round(inputTokens)),
                                     "--random-output-len", arg(std::round(outputTokens)), "--num-prompts", arg(prompts),
                                     "--ignore-eos"});
    else
        c.args.insert(c.args.end(), {"--dataset-name", "custom", "--dataset-path", "$PROMPTS", "--custom-output-len",
                                     arg(std::round(outputTokens)), "--num-prompts", arg(prompts), "--save-detailed"});
    c.args.push_back("--request-rate");
    c.args.push_back(load.rate ? arg(*load.rate) : "inf");
    if (load.rate) {
        c.args.push_back("--burstiness");
        c.args.push_back(arg(load.burstiness));
    }
    if (load.concurrency) {
        c.args.push_back("--max-concurrency");
        c.args.push_back(arg(*load.concurrency));
    }
    c.args.insert(c.args.end(), {"--percentile-metrics", "ttft,tpot,itl,e2el", "--metric-percentiles", "50,95,99"});
    const Slo &slo = brief.workload.slo;
    std::vector<std::string> goodput;
    if (auto t = slo.ttftP99S ? slo.ttftP99S : slo.ttftP95S)
        goodput.push_back("ttft:" + ms(*t));
    if (auto t = slo.tpotP99S ? slo.tpotP99S : slo.tpotP95S)
        goodput.push_back("tpot:" + ms(*t));
    if (auto t = slo.e2eP99S ? slo.e2eP99S : slo.e2eP95S)
        goodput.push_back("e2el:" + ms(*t));
    if (!goodput.empty()) {
        c.args.push_back("--goodput");
        c.args.insert(c.args.end(), goodput.begin(), goodput.end());
    }
    c.args.insert(c.args.end(), {"--save-result", "--result-dir", "$RESULTS", "--result-filename", resultFile});
    return c;
}

// guidellm benchmark (GuideLLM docs, "Run a Benchmark"): synthetic data of the given lengths;
// poisson for an open-loop rate, concurrent for a closed loop, throughput for offline work.
PlanCommand guidellmCommand(const std::string &purpose, double inputTokens, double outputTokens, const Load &load,
                            double maxSeconds, const std::string &resultFile, bool sweep)
{
    PlanCommand c{"guidellm", {"benchmark", "--target", "$BASE_URL", "--model", "$MODEL", "--data",
                               fmt::format("prompt_tokens={},output_tokens={}", arg(std::round(inputTokens)),
                                           arg(std::round(outputTokens)))},
                  purpose};
    if (sweep)
        c.args.insert(c.args.end(), {"--rate-type", "sweep"});
    else if (load.rate)
        c.args.insert(c.args.end(), {"--rate-type", "poisson", "--rate", arg(*load.rate)});
    else if (load.concurrency)
        c.args.insert(c.args.end(), {"--rate-type", "concurrent", "--rate", arg(*load.concurrency)});
    else
        c.args.insert(c.args.end(), {"--rate-type", "throughput"});
    c.args.insert(c.args.end(), {"--max-seconds", arg(std::ceil(maxSeconds)), "--output-path", "$RESULTS/" + resultFile});
    return c;
}

// Memory per GPU every second while the runs go (stopped with Ctrl-C), with the GPU vendor's
// tool: nvidia-smi's own loop, rocm-smi in a shell loop; none known for others.
std::optional<PlanCommand> memoryWatch(const std::string &vendor, const std::string &resultFile)
{
    if (vendor == "nvidia")
        return PlanCommand{"nvidia-smi",
                           {"--query-gpu=index,memory.used,memory.total", "--format=csv", "-l", "1", "-f",
                            "$RESULTS/" + resultFile},
                           "memory per GPU every second while the runs go (stop it with Ctrl-C)"};
    if (vendor == "amd")
        return PlanCommand{"sh",
                           {"-c", "while rocm-smi --showmeminfo vram --csv >> \"$RESULTS/" + resultFile +
                                      "\"; do sleep 1; done"},
                           "memory per GPU every second while the runs go (stop it with Ctrl-C)"};
    return std::nullopt;
}

std::string num(double v)
{
    return readableNumber(v);
}

std::string seconds(double s)
{
    return s < 1 ? fmt::format("{} ms", num(s * 1000)) : fmt::format("{} s", num(s));
}

PlanStep figureStep(std::string id, std::string what, std::string record, std::string criterionWords, double target,
                    std::optional<double> predicted, std::string comparison, std::string unit, std::string basis)
{
    PlanStep s;
    s.id = std::move(id);
    s.what = std::move(what);
    s.record = std::move(record);
    s.criterion = std::move(criterionWords);
    s.target = target;
    s.predicted = predicted;
    s.comparison = std::move(comparison);
    s.unit = std::move(unit);
    s.basis = std::move(basis);
    return s;
}

PlanStep wordStep(std::string id, std::string what, std::string record, std::string criterion)
{
    PlanStep s;
    s.id = std::move(id);
    s.what = std::move(what);
    s.record = std::move(record);
    s.criterion = std::move(criterion);
    return s;
}

} // namespace detail

using detail::shellQuote;

std::vector<std::string> PlanCommand::words() const
{
    std::vector<std::string> out{tool};
    for (const std::string &a : args) {
        const bool variable = a.rfind("$BASE_URL", 0) == 0 || a.rfind("$REPLICA_URL", 0) == 0 || a.rfind("$MODEL", 0) == 0 ||
                              a.rfind("$RESULTS", 0) == 0 || a.rfind("$PROMPTS", 0) == 0;
        if (variable)
            out.push_back("\"" + a + "\"");  // expanded by the shell, kept as one argument
        else
            out.push_back(shellQuote(a));
    }
    return out;
}

std::string PlanCommand::shell() const
{
    std::string line;
    for (const std::string &w : words())
        line += (line.empty() ? "" : " ") + w;
    return line;
}

std::string PlanCommand::shellLines(std::size_t width) const
{
    std::string out, line;
    for (const std::string &w : words()) {
        if (!line.empty() && w.rfind("--", 0) == 0 && line.size() + 1 + w.size() > width) {
            out += line + " \\\n";
            line = "  ";
        }
        line += (line.empty() || line == "  " ? "" : " ") + w;
    }
    return out + line;
}

} // namespace wb
