#include "evaluate/calibration.h"

#include "core/threadpool.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace wb {

namespace {

// Solves A x = b (A symmetric positive definite, n x n, row-major) by Gaussian elimination with
// partial pivoting.
std::vector<double> solve(std::vector<double> a, std::vector<double> b)
{
    const std::size_t n = b.size();
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r)
            if (std::fabs(a[r * n + col]) > std::fabs(a[pivot * n + col]))
                pivot = r;
        if (pivot != col) {
            for (std::size_t k = 0; k < n; ++k)
                std::swap(a[col * n + k], a[pivot * n + k]);
            std::swap(b[col], b[pivot]);
        }
        const double d = a[col * n + col];
        if (std::fabs(d) < 1e-300)
            continue;
        for (std::size_t r = col + 1; r < n; ++r) {
            const double f = a[r * n + col] / d;
            if (f == 0)
                continue;
            for (std::size_t k = col; k < n; ++k)
                a[r * n + k] -= f * a[col * n + k];
            b[r] -= f * b[col];
        }
    }
    std::vector<double> x(n, 0);
    for (std::size_t i = n; i-- > 0;) {
        double s = b[i];
        for (std::size_t k = i + 1; k < n; ++k)
            s -= a[i * n + k] * x[k];
        const double d = a[i * n + i];
        x[i] = std::fabs(d) < 1e-300 ? 0 : s / d;
    }
    return x;
}

// The free parameters: log factors the cases use.
struct Problem
{
    const std::vector<CalibrationCase> &cases;
    const CasePredictor &predict;
    const CalibrationOptions &options;
    std::vector<std::string> keys;                 // free factors
    std::vector<double> mu, width;                 // log prior, its width
    std::vector<double> ceiling;                   // log upper bound (+inf: none)
    std::vector<std::vector<std::size_t>> uses;    // per case: indexes into keys
    EfficiencyTable base;
    int evaluations = 0;

    EfficiencyTable tableAt(const std::vector<double> &theta) const
    {
        EfficiencyTable t = base;
        for (std::size_t k = 0; k < keys.size(); ++k)
            t.factor(keys[k])->value = std::exp(theta[k]);
        return t;
    }

    // Predictions of each job's case at its table.
    std::vector<std::vector<std::optional<double>>> run(const std::vector<std::pair<std::size_t, EfficiencyTable>> &jobs)
    {
        std::vector<std::vector<std::optional<double>>> out(jobs.size());
        // On the process's pool (core/threadpool.h): a case that throws fails the calibration
        // here, on the caller's thread, rather than ending the process.
        parallelFor(jobs.size(), [&](std::size_t j) { out[j] = predict(cases[jobs[j].first], jobs[j].second); });
        evaluations += int(jobs.size());
        return out;
    }

    std::vector<std::vector<std::optional<double>>> predictAll(const EfficiencyTable &t)
    {
        std::vector<std::pair<std::size_t, EfficiencyTable>> jobs;
        for (std::size_t i = 0; i < cases.size(); ++i)
            jobs.emplace_back(i, t);
        return run(jobs);
    }

    // Scaled residuals of case i's figures (0 where the engine gives none).
    std::vector<double> residuals(std::size_t i, const std::vector<std::optional<double>> &p) const
    {
        std::vector<double> r;
        const CalibrationCase &c = cases[i];
        for (std::size_t m = 0; m < c.measured.size(); ++m)
            r.push_back(m < p.size() && p[m] ? (std::log(*p[m]) - std::log(c.measured[m].value)) / options.measurementSigma : 0.0);
        return r;
    }

    // Cauchy loss of a scaled residual: r^2 near 0, growing like log r^2 beyond the robust scale.
    double loss(double r) const
    {
        const double c = options.robustScale / options.measurementSigma;
        return c * c * std::log1p(r * r / (c * c));
    }
    // Its iteratively-reweighted least-squares weight.
    double weight(double r) const
    {
        const double c = options.robustScale / options.measurementSigma;
        return 1.0 / (1.0 + r * r / (c * c));
    }

    double objective(const std::vector<double> &theta, const std::vector<std::vector<std::optional<double>>> &preds) const
    {
        double s = 0;
        for (std::size_t i = 0; i < cases.size(); ++i)
            for (double r : residuals(i, preds[i]))
                s += loss(r);
        for (std::size_t k = 0; k < keys.size(); ++k)
            s += std::pow((theta[k] - mu[k]) / width[k], 2);
        return s;
    }

    // Per case, the Jacobian rows (figure x key) of its scaled residuals at theta.
    std::vector<std::vector<std::vector<double>>> jacobian(const std::vector<double> &theta,
                                                           const std::vector<std::vector<std::optional<double>>> &at)
    {
        std::vector<std::pair<std::size_t, EfficiencyTable>> jobs;
        std::vector<std::pair<std::size_t, std::size_t>> which;  // case, key
        const double h = options.derivativeStep;
        for (std::size_t i = 0; i < cases.size(); ++i)
            for (std::size_t k : uses[i]) {
                std::vector<double> moved = theta;
                moved[k] += h;
                jobs.emplace_back(i, tableAt(moved));
                which.emplace_back(i, k);
            }
        const auto preds = run(jobs);
        std::vector<std::vector<std::vector<double>>> j(cases.size());
        for (std::size_t i = 0; i < cases.size(); ++i)
            j[i].assign(cases[i].measured.size(), std::vector<double>(keys.size(), 0.0));
        for (std::size_t n = 0; n < jobs.size(); ++n) {
            const auto [i, k] = which[n];
            for (std::size_t m = 0; m < cases[i].measured.size(); ++m)
                if (m < at[i].size() && at[i][m] && m < preds[n].size() && preds[n][m])
                    j[i][m][k] = (std::log(*preds[n][m]) - std::log(*at[i][m])) / h / options.measurementSigma;
        }
        return j;
    }

    // Normal equations at theta, without the cases `skip` marks (none when empty): H delta = -g.
    std::pair<std::vector<double>, std::vector<double>>
    normal(const std::vector<double> &theta, const std::vector<std::vector<std::optional<double>>> &at,
           const std::vector<std::vector<std::vector<double>>> &jac, const std::vector<char> &skip) const
    {
        const std::size_t n = keys.size();
        std::vector<double> hess(n * n, 0.0), grad(n, 0.0);
        for (std::size_t i = 0; i < cases.size(); ++i) {
            if (!skip.empty() && skip[i])
                continue;
            const std::vector<double> r = residuals(i, at[i]);
            for (std::size_t m = 0; m < r.size(); ++m) {
                const double w = weight(r[m]);
                for (std::size_t a = 0; a < n; ++a) {
                    if (jac[i][m][a] == 0)
                        continue;
                    grad[a] += w * jac[i][m][a] * r[m];
                    for (std::size_t b = 0; b < n; ++b)
                        hess[a * n + b] += w * jac[i][m][a] * jac[i][m][b];
                }
            }
        }
        for (std::size_t k = 0; k < n; ++k) {
            hess[k * n + k] += 1.0 / (width[k] * width[k]);
            grad[k] += (theta[k] - mu[k]) / (width[k] * width[k]);
        }
        for (double &g : grad)
            g = -g;
        return {hess, grad};
    }
};

} // namespace


CalibrationReport calibrate(const std::vector<CalibrationCase> &cases, const EfficiencyTable &start,
                            const CasePredictor &predict, const CalibrationOptions &options, bool fit)
{
    Problem pb{cases, predict, options, {}, {}, {}, {}, {}, start, 0};
    // Keys in table order, so that the result does not depend on the cases' order.
    std::set<std::string> used;
    for (const CalibrationCase &c : cases)
        for (const std::string &k : c.factorKeys)
            used.insert(k);
    for (const EfficiencyFactor &f : start.factors())
        if (used.count(f.key) && f.priorWidth > 0) {
            pb.keys.push_back(f.key);
            pb.mu.push_back(std::log(f.prior));
            pb.width.push_back(f.priorWidth);
            pb.ceiling.push_back(f.upper > 0 ? std::log(f.upper) : INFINITY);
        }
    for (const CalibrationCase &c : cases) {
        std::vector<std::size_t> idx;
        for (const std::string &k : c.factorKeys)
            for (std::size_t n = 0; n < pb.keys.size(); ++n)
                if (pb.keys[n] == k)
                    idx.push_back(n);
        pb.uses.push_back(idx);
    }

    std::vector<double> theta;
    for (const std::string &k : pb.keys)
        theta.push_back(std::log(start.factor(k)->value));
    std::vector<double> prior = pb.mu;

    CalibrationReport report;
    const auto atPrior = pb.predictAll(pb.tableAt(prior));
    if (fit)
        theta = prior;  // a fit starts from the priors
    auto at = fit ? atPrior : pb.predictAll(pb.tableAt(theta));
    report.objectiveBefore = pb.objective(theta, at);
    double current = report.objectiveBefore;
    for (int it = 0; fit && it < options.iterations; ++it) {
        const auto jac = pb.jacobian(theta, at);
        const auto [hess, rhs] = pb.normal(theta, at, jac, {});
        const std::vector<double> delta = solve(hess, rhs);
        bool accepted = false;
        for (double scale = 1.0; scale >= 0.125 && !accepted; scale /= 2) {
            std::vector<double> next = theta;
            for (std::size_t k = 0; k < next.size(); ++k)
                next[k] = std::min(pb.ceiling[k], next[k] + scale * std::clamp(delta[k], -1.0, 1.0));
            const auto preds = pb.predictAll(pb.tableAt(next));
            const double value = pb.objective(next, preds);
            if (value < current) {
                theta = next;
                at = preds;
                current = value;
                accepted = true;
            }
        }
        if (!accepted)
            break;
    }
    if (fit) {
        // The factors as the file keeps them, so that the held-out predictions and the bands
        // made of them are those of the shipped calibration (validate-performance's).
        for (double &t : theta)
            t = std::log(EfficiencyTable::fileValue(std::exp(t)));
        at = pb.predictAll(pb.tableAt(theta));
        current = pb.objective(theta, at);
    }
    report.objectiveAfter = current;
    report.table = pb.tableAt(theta);
    if (fit) {
        for (const EfficiencyFactor &f : start.factors())
            report.table.factor(f.key)->cases.clear();
        for (std::size_t i = 0; i < cases.size(); ++i) {
            // A case the engine gives no figure for informs nothing.
            if (std::none_of(at[i].begin(), at[i].end(), [](const std::optional<double> &v) { return v.has_value(); }))
                continue;
            for (std::size_t k : pb.uses[i]) {
                auto &list = report.table.factor(pb.keys[k])->cases;
                if (std::find(list.begin(), list.end(), cases[i].id) == list.end())
                    list.push_back(cases[i].id);
            }
        }
    }

    // Held-out predictions: one job per case and held-out set (the case alone, or its group in
    // each grouping), all on the Jacobian at the fit.
    std::vector<std::vector<std::optional<double>>> leftOut(cases.size());
    const std::vector<std::string> &groupings = bandGroupings();
    std::vector<std::vector<std::vector<std::optional<double>>>> groupOut(groupings.size(),
                                                                          std::vector<std::vector<std::optional<double>>>(cases.size()));
    if ((options.leaveOneOut || options.groupOut) && !pb.keys.empty()) {
        const auto jac = pb.jacobian(theta, at);
        const auto without = [&](const std::vector<char> &skip) {
            const auto [hess, rhs] = pb.normal(theta, at, jac, skip);
            const std::vector<double> delta = solve(hess, rhs);
            std::vector<double> t = theta;
            for (std::size_t k = 0; k < t.size(); ++k)
                t[k] = std::min(pb.ceiling[k], t[k] + std::clamp(delta[k], -1.0, 1.0));
            return pb.tableAt(t);
        };
        std::vector<std::pair<std::size_t, EfficiencyTable>> jobs;
        std::vector<std::pair<int, std::size_t>> which;  // grouping (-1: the case alone), case
        if (options.leaveOneOut)
            for (std::size_t i = 0; i < cases.size(); ++i) {
                std::vector<char> skip(cases.size(), 0);
                skip[i] = 1;
                jobs.emplace_back(i, without(skip));
                which.emplace_back(-1, i);
            }
        for (std::size_t g = 0; options.groupOut && g < groupings.size(); ++g) {
            std::map<std::string, std::vector<std::size_t>> members;
            for (std::size_t i = 0; i < cases.size(); ++i)
                if (const auto it = cases[i].groups.find(groupings[g]); it != cases[i].groups.end())
                    members[it->second].push_back(i);
            for (const auto &entry : members) {
                std::vector<char> skip(cases.size(), 0);
                for (std::size_t i : entry.second)
                    skip[i] = 1;
                const EfficiencyTable table = without(skip);
                for (std::size_t i : entry.second) {
                    jobs.emplace_back(i, table);
                    which.emplace_back(int(g), i);
                }
            }
        }
        const auto preds = pb.run(jobs);
        for (std::size_t n = 0; n < jobs.size(); ++n) {
            const auto [g, i] = which[n];
            (g < 0 ? leftOut[i] : groupOut[std::size_t(g)][i]) = preds[n];
        }
    }

    for (std::size_t i = 0; i < cases.size(); ++i) {
        const CalibrationCase &c = cases[i];
        for (std::size_t m = 0; m < c.measured.size(); ++m) {
            CalibrationRow row;
            row.id = c.id;
            row.set = c.set;
            row.assumed = c.assumed;
            const Candidate &cand = c.brief.candidates.front();
            row.hardware = fmt::format("{} x{}", cand.gpu, cand.gpus);
            row.figure = c.measured[m].figure;
            row.measured = c.measured[m].value;
            row.prior = m < atPrior[i].size() ? atPrior[i][m] : std::nullopt;
            row.calibrated = m < at[i].size() ? at[i][m] : std::nullopt;
            if (options.leaveOneOut)
                row.leftOut = m < leftOut[i].size() ? leftOut[i][m] : std::nullopt;
            row.groups = c.groups;
            for (std::size_t g = 0; options.groupOut && g < groupings.size(); ++g)
                if (c.groups.count(groupings[g]))
                    row.groupOut[groupings[g]] = m < groupOut[g][i].size() ? groupOut[g][i][m] : std::nullopt;
            if (!row.calibrated)
                report.unpredicted.push_back(c.id + ": the engine gives no " + measuredFigureName(row.figure)
                                             + " for this brief (see its warnings with gpuwb evaluate); it informs no factor");
            report.rows.push_back(row);
        }
    }
    report.evaluations = pb.evaluations;
    return report;
}

} // namespace wb
