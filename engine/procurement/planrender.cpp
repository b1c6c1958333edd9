// The benchmark plan as Markdown (for people; what `gpuwb plan` prints and the Plan page shows)
// and as JSON (for scripts).
#include "procurement/plan.h"

#include "procurement/plancommands.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace wb {

namespace {

using OrderedJson = nlohmann::ordered_json;

// Free text (a brief's name, a provider's) on one Markdown line: line breaks and other control
// characters become spaces, so that no text can open a code block of its own.
std::string oneLine(std::string text)
{
    for (char &c : text)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = ' ';
    return text;
}

OrderedJson commandJson(const PlanCommand &c)
{
    return {{"tool", c.tool}, {"purpose", c.purpose}, {"args", c.args}, {"shell", c.shell()}};
}

OrderedJson optionalNumber(const std::optional<double> &v)
{
    return v ? OrderedJson(*v) : OrderedJson(nullptr);
}

} // namespace

std::string planToMarkdown(const BenchmarkPlan &plan)
{
    std::string out = "# Benchmark plan: " + oneLine(plan.briefName) + "\n\n";
    out += "Four phases per candidate, as the method lists them. Keep the inputs, the result files and this plan with the "
           "decision. Each criterion compares a measured figure with the brief's target; the prediction is the engine's "
           "(GPU Workbench " + plan.engineVersion + ").\n\n";
    // The variables only where a step has serving commands (LLM serving); other kinds' steps are
    // run with the team's own job.
    const bool commands = std::any_of(plan.candidates.begin(), plan.candidates.end(), [](const CandidatePlan &c) {
        return std::any_of(c.phases.begin(), c.phases.end(), [](const PlanPhase &p) {
            return std::any_of(p.steps.begin(), p.steps.end(), [](const PlanStep &s) {
                return std::any_of(s.commands.begin(), s.commands.end(), [](const PlanCommand &k) { return k.tool != "nvidia-smi" && k.tool != "rocm-smi"; });
            });
        });
    });
    if (commands) {
        out += "Set these before running the commands. MODEL is the model as the server serves it (the catalog's "
               "repository is shown: use the instruct or quantized checkpoint you deploy); BASE_URL the endpoint in front "
               "of every replica (a load balancer); REPLICA_URL one replica's own endpoint; PROMPTS a JSONL file of the "
               "team's representative prompts ({\"prompt\": ...} per line).\n\n```sh\n";
        out += "export MODEL=" + detail::shellQuote(plan.modelRepo) +
               "\nexport BASE_URL=http://localhost:8000\nexport REPLICA_URL=\"$BASE_URL\"\nexport PROMPTS=prompts.jsonl\n"
               "export RESULTS=plan-results\nmkdir -p \"$RESULTS\"\n```\n";
    }
    for (const CandidatePlan &c : plan.candidates) {
        out += fmt::format("\n## Candidate {}: {}\n", c.candidate + 1, oneLine(c.label));
        for (const std::string &n : c.notes)
            out += "\n> " + oneLine(n) + "\n";
        int phaseNumber = 0;
        for (const PlanPhase &p : c.phases) {
            out += fmt::format("\n### Phase {}: {}\n", ++phaseNumber, p.title);
            int stepNumber = 0;
            for (const PlanStep &s : p.steps) {
                const std::optional<bool> pass = s.predictedToPass();
                out += fmt::format("\n{}. **{}** {}\n   - Record: {}\n   - Accept when: {}{}\n", ++stepNumber, s.id,
                                   oneLine(s.what), oneLine(s.record), oneLine(s.criterion),
                                   pass && !*pass ? " — **predicted to miss**" : "");
                if (!s.commands.empty()) {
                    out += "\n   ```sh\n";
                    for (const PlanCommand &cmd : s.commands) {
                        std::string lines = cmd.shellLines();
                        for (std::size_t at = lines.find('\n'); at != std::string::npos; at = lines.find('\n', at + 4))
                            lines.replace(at, 1, "\n   ");  // indented under the list item
                        out += "   # " + oneLine(cmd.purpose) + "\n   " + lines + "\n";
                    }
                    out += "   ```\n";
                }
            }
        }
    }
    return out;
}

std::string planToJson(const BenchmarkPlan &plan)
{
    OrderedJson root = {{"format", "gpu-workbench-benchmark-plan"},
                        {"version", 1},
                        {"brief", plan.briefName},
                        {"engine_version", plan.engineVersion},
                        {"environment",
                         {{"MODEL", plan.modelRepo},
                          {"BASE_URL", "http://localhost:8000"},
                          {"REPLICA_URL", "$BASE_URL"},
                          {"PROMPTS", "prompts.jsonl"},
                          {"RESULTS", "plan-results"}}}};
    OrderedJson candidates = OrderedJson::array();
    for (const CandidatePlan &c : plan.candidates) {
        OrderedJson phases = OrderedJson::array();
        for (const PlanPhase &p : c.phases) {
            OrderedJson steps = OrderedJson::array();
            for (const PlanStep &s : p.steps) {
                OrderedJson commands = OrderedJson::array();
                for (const PlanCommand &cmd : s.commands)
                    commands.push_back(commandJson(cmd));
                steps.push_back({{"id", s.id},
                                 {"what", s.what},
                                 {"record", s.record},
                                 {"criterion", s.criterion},
                                 {"target", optionalNumber(s.target)},
                                 {"comparison", s.comparison.empty() ? OrderedJson(nullptr) : OrderedJson(s.comparison)},
                                 {"unit", s.unit.empty() ? OrderedJson(nullptr) : OrderedJson(s.unit)},
                                 {"predicted", optionalNumber(s.predicted)},
                                 {"predicted_to_pass", s.predictedToPass() ? OrderedJson(*s.predictedToPass()) : OrderedJson(nullptr)},
                                 {"basis", s.basis.empty() ? OrderedJson(nullptr) : OrderedJson(s.basis)},
                                 {"commands", commands}});
            }
            phases.push_back({{"id", p.id}, {"title", p.title}, {"title_es", p.titleEs}, {"steps", steps}});
        }
        candidates.push_back({{"candidate_index", c.candidate}, {"label", c.label}, {"notes", c.notes}, {"phases", phases}});
    }
    root["candidates"] = candidates;
    return root.dump(2) + "\n";
}

} // namespace wb
