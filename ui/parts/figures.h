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

} // namespace wb::figures
