// `cudascope export --gamut-display MODE`: the display's PNG (its size from --size) and counts
// (.npy, 512 x 512, summing to the frame's points: two per pixel, one for the Arrowhead),
// report.json naming the display, and the refusals of a bad mode or a limit without the Arrowhead.
#include <gtest/gtest.h>

#include <QImage>
#include <QJsonArray>

#include <numeric>

#include "CliRunner.h"

namespace cs::testing {
namespace {

TEST(GamutDisplayExport, BarsWriteDiamondPngAndCounts) {
    QTemporaryDir tmp;
    const QString out = tmp.path() + "/out";
    const RunResult r = cudascope({"export", "pattern:bars:320x180", "--out", out, "--max-frames", "1", "--engine", "cpu",
                                   "--scopes", "stats", "--gamut-display", "diamond", "--size", "300x200"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QImage png(out + "/000000-gamut-diamond.png");
    ASSERT_FALSE(png.isNull());
    EXPECT_EQ(png.width(), 200);
    EXPECT_EQ(png.height(), 200);
    std::vector<size_t> shape;
    const std::vector<uint32_t> counts = readNpyUint32((out + "/000000-gamut-diamond.npy").toStdString(), shape);
    ASSERT_EQ(shape, (std::vector<size_t>{512, 512}));
    EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), uint64_t(0)), uint64_t(2 * 320 * 180));
    const QJsonObject report = readJson((out + "/report.json").toStdString());
    EXPECT_EQ(report["scopes"].toObject()["gamut_display"].toString(), "diamond");
}

TEST(GamutDisplayExport, ArrowheadCountsEachPixelOnce) {
    QTemporaryDir tmp;
    const QString out = tmp.path() + "/out";
    const RunResult r = cudascope({"export", "pattern:bars:160x90", "--out", out, "--max-frames", "1", "--engine", "cpu",
                                   "--scopes", "stats", "--gamut-display", "arrowhead", "--arrowhead-limit", "pal"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::vector<size_t> shape;
    const std::vector<uint32_t> counts = readNpyUint32((out + "/000000-gamut-arrowhead.npy").toStdString(), shape);
    EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), uint64_t(0)), uint64_t(160 * 90));
    const QJsonObject report = readJson((out + "/report.json").toStdString());
    EXPECT_EQ(report["scopes"].toObject()["arrowhead_limit"].toString(), "pal");
}

TEST(GamutDisplayExport, BadValuesAreUsageErrors) {
    QTemporaryDir tmp;
    RunResult r = cudascope({"export", "pattern:bars", "--out", tmp.path() + "/o", "--gamut-display", "spearhead"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--gamut-display must be diamond, split-diamond, arrowhead or lightning, not 'spearhead'"),
              std::string::npos)
        << r.err;
    r = cudascope({"export", "pattern:bars", "--out", tmp.path() + "/o", "--gamut-display", "diamond", "--arrowhead-limit", "pal"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--arrowhead-limit pal sets the arrowhead's limits: add --gamut-display arrowhead"), std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace cs::testing
