// `cudascope export --scopes cie`: the CIE scope's PNG and counts (.npy, 512 x 512, summing
// to the frame's pixels), report.json's per-frame gamut object (a BT.709 source inside
// BT.709; a BT.2020 clip outside it), and the refusals of bad --gamut-target / --cie values.
#include <gtest/gtest.h>

#include <QJsonArray>

#include <numeric>

#include "CliRunner.h"

namespace cs::testing {
namespace {

QJsonObject readReport(const QString& dir) {
    return readJson((dir + "/report.json").toStdString());
}

TEST(GamutExport, BarsWriteCieFilesAndAGamutEntry) {
    QTemporaryDir tmp;
    const QString out = tmp.path() + "/out";
    const RunResult r = cudascope({"export", "pattern:bars:640x360", "--out", out, "--max-frames", "1", "--engine", "cpu",
                                   "--scopes", "cie,stats", "--cie", "uv", "--gamut-target", "p3"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(QFile::exists(out + "/000000-cie.png"));
    std::vector<size_t> shape;
    const std::vector<uint32_t> counts = readNpyUint32((out + "/000000-cie.npy").toStdString(), shape);
    ASSERT_EQ(shape, (std::vector<size_t>{512, 512}));
    EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), uint64_t(0)), uint64_t(640 * 360));
    const QJsonObject report = readReport(out);
    EXPECT_EQ(report["scopes"].toObject()["cie"].toString(), "uv");
    EXPECT_EQ(report["scopes"].toObject()["gamut_target"].toString(), "p3-d65");
    EXPECT_EQ(report["source"].toObject()["primaries"].toString(), "BT.709");
    const QJsonObject gamut = report["frames"].toArray()[0].toObject()["gamut"].toObject();
    EXPECT_EQ(gamut["target"].toString(), "p3-d65");
    EXPECT_EQ(gamut["source"].toString(), "BT.709");
    EXPECT_EQ(gamut["outside"].toInt(-1), 0);
    EXPECT_EQ(gamut["outside_share"].toDouble(-1), 0.0);
}

TEST(GamutExport, Bt2020ClipIsOutsideBt709) {
    QTemporaryDir tmp;
    const QString clip = tmp.path() + "/wide.mkv", out = tmp.path() + "/out";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "smptehdbars=s=256x144:d=0.04", "-vf",
                      "scale=out_color_matrix=bt2020:out_range=tv,format=yuv420p10le", "-c:v", "ffv1", "-color_range", "tv",
                      "-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc", "bt709", clip})
                  .exitCode,
              0);
    const RunResult r = cudascope({"export", clip, "--out", out, "--engine", "cpu", "--scopes", "cie"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QJsonObject report = readReport(out);
    EXPECT_EQ(report["source"].toObject()["primaries"].toString(), "BT.2020");
    const QJsonObject gamut = report["frames"].toArray()[0].toObject()["gamut"].toObject();
    EXPECT_EQ(gamut["target"].toString(), "bt709");
    EXPECT_GT(gamut["outside_share"].toDouble(), 0.3);
}

TEST(GamutExport, BadValuesAreUsageErrors) {
    QTemporaryDir tmp;
    RunResult r = cudascope({"export", "pattern:bars", "--out", tmp.path() + "/o", "--gamut-target", "601"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--gamut-target must be bt709, p3 or bt2020, not '601'"), std::string::npos) << r.err;
    r = cudascope({"export", "pattern:bars", "--out", tmp.path() + "/o", "--cie", "lab"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--cie"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cs::testing
