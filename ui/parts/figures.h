// How a result table shows the state of its figures, the same on every page: a missing figure
// says why in words (its tooltip gives the engine's whole reason), and figures from the quick
// first answer are marked provisional (italic, with a tooltip) until the full evaluation
// replaces them.
#pragma once

#include <evaluate/evaluate.h>

#include <QString>
#include <QVariant>

namespace wb::figures {

// "does not fit", "no price", "unsupported precision", ...: why the candidate has no cost, in a
// few words for a cell; empty when it has one.
QString whyMissing(const CandidateResult &result);
// The engine's message behind whyMissing, for the cell's tooltip.
QString whyMissingDetail(const CandidateResult &result);

// The value of `role` for a figure cell of results still provisional (a first answer): an
// italic font, and a tooltip line saying so. An invalid QVariant when the results are final or
// the role is another.
QVariant provisional(const Results &results, int role);
QString provisionalNote();

// A column tooltip's pointer to the glossary entry of its term (Help > Guide and Glossary, F1).
QString glossaryHint(const QString &term);

// The P10-P90 band of the figure at `path` (CandidateResult::uncertainty), scaled to the value
// a cell shows (`shown`, in the cell's unit and `decimals`), for the cell's tooltip:
// "p99: P10-P90 812 to 1,113; measured values near such figures centre on 951" and where the
// band comes from, wrapped to a readable width; `what` names the figure when a cell shows two.
// A figure the brief sets (an offered load) says so. Empty without a band.
QString bandLine(const CandidateResult &result, const std::string &path, double shown, int decimals, const QString &what = {});
// The index of an option among its candidate's cost options, for the option's band paths
// ("cost.options.N.cost_per_accepted_output_usd"); nullopt for the API, hybrids and others.
std::optional<std::size_t> optionIndex(const CandidateResult &result, const CostOption *option);
std::string optionCostPath(std::size_t index);

} // namespace wb::figures
