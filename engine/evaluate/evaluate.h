// evaluate(): a brief in, plain results out, one entry per candidate, the API route and the
// recommendation, which the engine holds back while the brief misses a blocking item. The
// renderings (JSON, table, CSV) are in report/.
#pragma once

#include "brief/brief.h"
#include "brief/completeness.h"
#include "catalog/catalog.h"
#include "cost/cost.h"
#include "fit/fit.h"
#include "performance/performance.h"

#include <cstdint>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace wb {

const char *engineVersion();

struct CandidateResult
{
    Candidate candidate;
    std::string gpuName;
    FitResult fit;
    PerformanceResult performance;
    CandidateCost cost;
    std::vector<Warning> warnings;  // fit, performance and cost warnings
    // Each predicted figure's P10-P90 band by its dotted path in the results JSON
    // ("performance.output_tokens_per_s", "cost.options.0.cost_per_accepted_output_usd"), from the
    // calibration's held-out errors (catalog/bands.h, evaluate/uncertainty.h); empty without bands.
    std::map<std::string, Band> uncertainty;
    // When the candidate as entered does not hold the brief (fit.resize), the same GPU and stack
    // sized to the smallest deployment that does, evaluated in full: the candidate is sized, not
    // dropped. Its own figures above stay those of the count as entered (fits: false).
    std::shared_ptr<const CandidateResult> resized;
    // Where the step model's factors came from when not the shipped calibration: "calibrated
    // from 3 runs" (CandidateEfficiency::provenance); empty otherwise.
    std::string provenance;
    int calibrationRuns = 0;         // the runs that calibration was fitted to
};

// Why a candidate has no cost (and, before it, no performance or fit): the warning of the first
// step that stopped, in the order fit, performance, cost (unknown GPU, unsupported precision,
// does not fit, kind not modelled, no load within the SLO, no price, ...). nullptr when costed.
const Warning *whyNotCosted(const CandidateResult &result);

// The figures that stand for a candidate in rankings and comparisons: its resize when it has
// one (laid out anew to hold the brief, or sized for the peak), else its own.
inline const CandidateResult &deployment(const CandidateResult &r)
{
    return r.resized ? *r.resized : r;
}

// Whether the candidate as entered could not hold the brief and was laid out anew: its row as
// entered is then shown beside its deployment's, for reference. A candidate that holds the brief
// and was only sized for the peak shows its deployment alone (the count entered is where the
// sizing started, not a figure of its own).
inline bool resizedToFit(const CandidateResult &r)
{
    return r.resized && r.fit.computed && !r.fit.fits;
}

// A vendor's answer to a checklist question that bears on a candidate's figures (the
// interconnect, the node shape, the storage bandwidth, idle billing), shown beside them. Set by
// procurement/gate.h from a project's checklist; empty for a brief alone.
struct VendorNote
{
    std::size_t candidate = 0;   // index into the brief's candidates
    std::string vendor, item;
    std::string figures;         // "fit", "performance" or "cost"
    std::string what;            // what in those figures the answer bears on
    std::string answer;          // the answer's name ("yes", "partial", ...)
    std::string text;            // the vendor's words
};

// Counts the deep copies of Results made in this process (moves are free): a diagnostic the
// window's tests read to check that an edit shares its results rather than copying them.
struct ResultsCopies
{
    ResultsCopies() = default;
    ResultsCopies(const ResultsCopies &) noexcept;
    ResultsCopies &operator=(const ResultsCopies &) noexcept;
    ResultsCopies(ResultsCopies &&) noexcept = default;
    ResultsCopies &operator=(ResultsCopies &&) noexcept = default;
};
std::uint64_t resultsCopyCount();

struct Results
{
    std::string briefName;
    std::vector<CandidateResult> results;
    std::vector<Warning> briefWarnings;
    CostSummary cost;               // API route, recommendation, common mistakes
    Completeness completeness;      // of the brief evaluated
    // The blocking brief items still missing. While any is, the engine ranks nothing:
    // cost.recommendation is empty and every presentation says which items hold it back.
    std::vector<BriefItem> rankingHeldBackBy;
    bool ranked() const { return rankingHeldBackBy.empty(); }
    bool performanceEvaluated = false;
    bool preview = false;           // figures from the quick budget; the full ones are to follow
    bool cancelled = false;
    // Set when the engine failed (an exception inside it, a bug): what failed, for the status
    // bar and the warnings. The figures are then incomplete and nothing is recommended.
    std::optional<std::string> engineError;
    // The step model's efficiency factors the figures rest on, each with its source (calibrated
    // from which measured cases, or a literature prior).
    std::vector<EfficiencyFactor> efficiencyFactors;
    std::vector<VendorNote> vendorNotes;
    ResultsCopies copies;
};

// The API route, the recommendation and the common-mistake checks over all candidates (cost.cpp).
CostSummary summarizeCost(const Brief &brief, const std::vector<CandidateResult> &results, const Catalog &catalog,
                          const std::string &today);

// A step model's factors for the candidates of one GPU and serving stack (a calibration from a
// project's measured runs, evidence/evidence.h), and what the figures then say of themselves.
struct CandidateEfficiency
{
    std::string gpu;
    ServingStack stack = ServingStack::Generic;
    const EfficiencyTable *table = nullptr;
    std::string provenance;    // "calibrated from 3 runs"
    int runs = 0;
    std::vector<Warning> warnings;  // added to each matching candidate's
};

struct EvaluateOptions
{
    std::string today;                           // ISO date prices are aged against; empty: the system clock
    bool performance = true;                     // false: memory fit only (fast, for a first look)
    std::stop_token stop;                        // requested from another thread: stop early
    bool preview = false;                        // the quick simulation budget (performance.h)
    const EfficiencyTable *efficiency = nullptr; // the step model's factors; null: the catalog's
    std::vector<CandidateEfficiency> candidateEfficiency;  // overrides it for matching candidates
    // The fits of the brief's candidates as entered, in order, already made for this brief (a
    // fit-only pass, or the quick pass before the full one): used instead of fitting again. A
    // list of another length is ignored.
    std::shared_ptr<const std::vector<FitResult>> fits;
};

// The fits of results' candidates as entered, for EvaluateOptions::fits.
std::shared_ptr<const std::vector<FitResult>> fitsOf(const Results &results);

// One candidate as entered (no resize): fit, performance and cost. `today` as EvaluateOptions'.
// knownFit: the candidate's fit on this brief, when already made.
CandidateResult evaluateCandidate(const Brief &brief, const Candidate &candidate, const Catalog &catalog,
                                  const EvaluateOptions &options, const std::string &today,
                                  const FitResult *knownFit = nullptr);

// Every candidate of the brief, on all cores. A cancelled evaluation returns what it has, with
// Results::cancelled set; its figures must not be shown as final.
Results evaluate(const Brief &brief, const Catalog &catalog, const EvaluateOptions &options = {});

} // namespace wb
