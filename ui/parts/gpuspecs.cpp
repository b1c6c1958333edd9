#include "parts/gpuspecs.h"

#include "parts/words.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

namespace wb {

namespace {

// The file's translation context, so that lupdate finds every string (Text::tr("...")).
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(GpuSpecs)
};

QString flops(const std::optional<double> &f)
{
    return f ? QLocale().toString(*f / 1e12, 'f', 0) : QStringLiteral("–");
}

QString amount(const GpuPrice &p)
{
    const QLocale l;
    return p.term == PricingTerm::Purchase ? Text::tr("$%1/GPU").arg(l.toString(p.usdPerGpu, 'f', 0))
                                           : Text::tr("$%1/h").arg(l.toString(p.usdPerGpuHour, 'f', 2));
}

QString term(const GpuPrice &p)
{
    return words(p.term);
}

} // namespace

QString gpuFigureText(const GpuSpec &g, GpuFigure figure)
{
    const QLocale l;
    switch (figure) {
    case GpuFigure::Memory: return l.toString(double(g.memoryBytes) / (1024.0 * 1024 * 1024), 'f', 0);
    case GpuFigure::Bandwidth: return l.toString(g.memoryBandwidthBytesPerS / 1e12, 'f', 2);
    case GpuFigure::Bf16: return flops(g.denseFlops.bf16);
    case GpuFigure::Fp8: return flops(g.denseFlops.fp8);
    case GpuFigure::Fp4: return flops(g.denseFlops.fp4);
    case GpuFigure::ScaleUp:
        return Text::tr("%1 %2 GB/s × %3")
            .arg(words(g.scaleUp.kind))
            .arg(l.toString(g.scaleUp.bandwidthBytesPerS / 1e9, 'f', 0))
            .arg(g.scaleUp.domainGpus);
    case GpuFigure::Power: return l.toString(g.boardPowerW, 'f', 0);
    }
    return {};
}

QString gpuFigureHeader(GpuFigure figure)
{
    switch (figure) {
    case GpuFigure::Memory: return Text::tr("Memory (GiB)");
    case GpuFigure::Bandwidth: return Text::tr("HBM TB/s");
    case GpuFigure::Bf16: return Text::tr("bf16 TFLOP/s");
    case GpuFigure::Fp8: return Text::tr("fp8 TFLOP/s");
    case GpuFigure::Fp4: return Text::tr("fp4 TFLOP/s");
    case GpuFigure::ScaleUp: return Text::tr("Scale-up");
    case GpuFigure::Power: return Text::tr("Power W");
    }
    return {};
}

QString gpuFigureSource(const Catalog &catalog, const GpuSpec &g, GpuFigure figure)
{
    const char *name = figure == GpuFigure::Memory      ? "memory"
                       : figure == GpuFigure::Bandwidth ? "bandwidth"
                       : figure == GpuFigure::ScaleUp   ? "scale_up"
                       : figure == GpuFigure::Power     ? "board_power"
                                                        : "flops";
    const auto id = g.figureSources.find(name);
    const Source *s = id == g.figureSources.end() ? nullptr : catalog.source(id->second);
    return s ? Text::tr("Source: %1 (%2), read %3")
                   .arg(QString::fromStdString(s->title), QString::fromStdString(s->url),
                        QString::fromStdString(s->readDate))
             : QString();
}

PriceSelection gpuPrices(const Catalog &catalog, const std::vector<GpuPrice> &briefPrices, const std::string &gpu,
                         double staleDays, std::optional<DataRegion> region)
{
    return selectPrices(briefPrices, catalog, gpu, todayIso(), staleDays, region);
}

QString priceSummary(const PriceSelection &prices)
{
    const std::optional<PriceChoice> pick = prices.headline();
    if (!pick)
        return Text::tr("no price");
    return Text::tr("%1 %2, %3%4")
        .arg(amount(*pick->price), term(*pick->price), QString::fromStdString(pick->price->observed),
             pick->stale ? Text::tr(" (stale)") : QString());
}

QString priceDetails(const PriceSelection &prices)
{
    QStringList lines;
    for (const GpuPrice *p : prices.offers) {
        const bool outside = std::find(prices.outsideRegion.begin(), prices.outsideRegion.end(), p) != prices.outsideRegion.end();
        lines << Text::tr("%1%2 %3 — %4, observed %5%6%7 (%8)")
                     .arg(prices.isChosen(p) ? Text::tr("✓ ") : outside ? Text::tr("✗ ") : Text::tr("   "), term(*p), amount(*p),
                          QString::fromStdString(p->provider), QString::fromStdString(p->observed),
                          p->origin == "brief" ? Text::tr(", from the brief") : QString(),
                          p->region ? (outside ? Text::tr(", runs in %1: outside the brief's data region")
                                               : Text::tr(", runs in %1")).arg(words(enumName(*p->region)))
                                    : QString(),
                          QString::fromStdString(p->source));
        if (const std::string terms = commercialTermsWords(*p); !terms.empty())
            lines << Text::tr("      terms: %1").arg(QString::fromStdString(terms));
    }
    if (lines.isEmpty())
        return Text::tr("No dated price: add one under cost.prices in the brief.");
    return Text::tr("✓ marks the price the cost model uses for its term (current before stale, the brief's before the "
              "price book's, then the lowest); ✗ an offer outside the brief's data region, left out\n")
        + lines.join(u'\n');
}

} // namespace wb
