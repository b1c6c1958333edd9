#include "procurement/gate.h"

#include <algorithm>

namespace wb {

namespace {

std::string itemWords(const ChecklistTemplate &tmpl, const std::string &id)
{
    const ChecklistItem *item = tmpl.item(id);
    return item ? id + " (" + item->question + ")" : id;
}

std::string listWords(const ChecklistTemplate &tmpl, const std::vector<std::string> &ids)
{
    std::string out;
    for (const std::string &id : ids)
        out += (out.empty() ? "" : "; ") + itemWords(tmpl, id);
    return out;
}

} // namespace

std::optional<Commitment> commitmentOf(const Recommendation &rec, const Vendor *vendor)
{
    if (!rec.term || (rec.route != Route::Reserve && rec.route != Route::Buy && rec.route != Route::Hybrid))
        return std::nullopt;
    std::optional<Commitment> c;
    switch (*rec.term) {
    case PricingTerm::Reserved1y:
    case PricingTerm::Reserved3y: c = Commitment::Reserved; break;
    case PricingTerm::Purchase: c = Commitment::Purchase; break;
    case PricingTerm::OnDemand:
    case PricingTerm::Spot: return std::nullopt;  // a hybrid's base rented on demand commits to nothing
    }
    if (rec.offer == Offer::DedicatedCluster || (vendor && vendor->offer == VendorOffer::ClusterRental))
        c = std::max(*c, Commitment::DedicatedCluster);
    return c;
}

std::vector<VendorNote> vendorNotes(const Results &results, const std::string &scenario, const ChecklistTemplate &tmpl,
                                    const ProjectChecklist &checklist)
{
    std::vector<VendorNote> notes;
    for (std::size_t i = 0; i < results.results.size(); ++i) {
        const CandidateRef ref{scenario, int(i) + 1};
        const CandidateResult &r = deployment(results.results[i]);
        for (const Vendor &v : checklist.vendors) {
            const bool backs = v.offers(ref) || std::any_of(r.cost.options.begin(), r.cost.options.end(),
                                                            [&](const CostOption &o) { return v.quotes(o.provider); });
            if (!backs)
                continue;
            for (const ChecklistItem &item : tmpl.items) {
                const VendorAnswer *a = v.answer(item.id);
                if (item.affects.empty() || !a)
                    continue;
                notes.push_back({i, v.name, item.id, item.affects, item.affectsWhat, std::string(enumName(a->answer)), a->text});
            }
        }
    }
    return notes;
}

void gateByChecklist(Results &results, const std::string &scenario, const ChecklistTemplate &tmpl,
                     const ProjectChecklist &checklist)
{
    results.vendorNotes = vendorNotes(results, scenario, tmpl, checklist);
    if (!results.cost.recommendation || !results.cost.recommendation->candidate)
        return;
    Recommendation &rec = *results.cost.recommendation;
    rec.evidence.reset();
    const CandidateRef ref{scenario, int(*rec.candidate) + 1};

    // The vendor whose quote this is; else the one backing the candidate with the fewest gaps.
    const Vendor *vendor = nullptr;
    for (const Vendor &v : checklist.vendors)
        if (v.quotes(rec.provider)) {
            vendor = &v;
            break;
        }
    if (!vendor) {
        std::size_t fewest = SIZE_MAX;
        for (const Vendor &v : checklist.vendors) {
            if (!v.backs(rec.provider, ref))
                continue;
            const auto c = commitmentOf(rec, &v);
            const VendorGaps g = c ? vendorGaps(tmpl, v, *c) : VendorGaps{};
            if (g.missing.size() + g.unbacked.size() < fewest) {
                fewest = g.missing.size() + g.unbacked.size();
                vendor = &v;
            }
        }
    }
    const auto commitment = commitmentOf(rec, vendor);
    if (!commitment)
        return;

    EvidenceGate gate;
    gate.commitment = *commitment;
    VendorGaps gaps;
    if (vendor) {
        gate.vendor = vendor->name;
        gaps = vendorGaps(tmpl, *vendor, *commitment);
    } else {
        for (const ChecklistItem &item : tmpl.items)
            if (item.requiredFor(*commitment))
                gaps.missing.push_back(item.id);
    }
    if (gaps.empty())
        return;
    for (const std::string &id : gaps.missing)
        gate.missing.push_back(itemWords(tmpl, id));
    for (const std::string &id : gaps.unbacked)
        gate.unbacked.push_back(itemWords(tmpl, id));

    const std::string level(enumName(*commitment));
    const char *text = nullptr;
    if (vendor && gaps.unbacked.empty())
        text = WB_MESSAGE("Messages", "the recommendation ({level}, {provider}) stands subject to evidence: {vendor} has not answered "
                          "{open} of the items the checklist requires for a {level} commitment. Unanswered: {unanswered}");
    else if (vendor && gaps.missing.empty())
        text = WB_MESSAGE("Messages", "the recommendation ({level}, {provider}) stands subject to evidence: {vendor} has not answered "
                          "{open} of the items the checklist requires for a {level} commitment. Answered without "
                          "evidence (a link or a file, required from a {evidence_from} on): {unbacked}");
    else if (vendor)
        text = WB_MESSAGE("Messages", "the recommendation ({level}, {provider}) stands subject to evidence: {vendor} has not answered "
                          "{open} of the items the checklist requires for a {level} commitment. Unanswered: "
                          "{unanswered}. Answered without evidence (a link or a file, required from a {evidence_from} "
                          "on): {unbacked}");
    else
        text = WB_MESSAGE("Messages", "the recommendation ({level}, {provider}) stands subject to evidence: no vendor in the "
                          "project's checklist backs this price or candidate {candidate}, so none of the {open} items "
                          "required for a {level} commitment is answered. Add the vendor on the Checklist page (or gpuwb "
                          "checklist import) and ask: {unanswered}");
    const Message message = makeMessage(
        "checklist-evidence-missing", "", text,
        {{"level", std::string(level)}, {"provider", rec.provider}, {"vendor", vendor ? vendor->name : std::string()},
         {"candidate", std::int64_t(ref.candidate)}, {"open", std::int64_t(gaps.missing.size() + gaps.unbacked.size())},
         {"unanswered", listWords(tmpl, gaps.missing)}, {"unbacked", listWords(tmpl, gaps.unbacked)},
         {"evidence_from", std::string(enumName(kEvidenceFrom))}});
    rec.reasons.push_back(vendor ? makeMessage("subject-to-evidence", "",
                                               WB_MESSAGE("Messages", "subject to evidence: required checklist items of {vendor} still "
                                                          "open: {open}"),
                                               {{"vendor", vendor->name},
                                                {"open", std::int64_t(gaps.missing.size() + gaps.unbacked.size())}})
                                 : makeMessage("subject-to-evidence", "",
                                               WB_MESSAGE("Messages", "subject to evidence: no vendor's checklist backs this option")));
    results.cost.warnings.push_back(message);
    rec.evidence = std::move(gate);
}

} // namespace wb
