// export's scope-style options through the binary: waveform modes, reference lines, trace
// colour, vectorscope zoom and peaking colour; each bad value a usage error naming it.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>

#include "CliRunner.h"

using namespace cs::testing;

namespace {

// A usage error of `cudascope export`: exit 2, the sentence on the first line, export's usage after it.
void expectExportUsageError(const RunResult& r, const std::string& line) {
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(firstLine(r.err), line) << r.err;
    EXPECT_NE(r.err.find("\nusage: cudascope export"), std::string::npos) << r.err;
}

// A PNG's pixels as R, G, B bytes, decoded by the ffmpeg CLI.
struct Rgb24 {
    int width = 0, height = 0;
    std::string bytes;
    int at(int x, int y, int c) const { return uint8_t(bytes[(size_t(y) * size_t(width) + size_t(x)) * 3 + size_t(c)]); }
};
Rgb24 decodePng(const QString& path, int width, int height) {
    const RunResult r = ffmpeg({"-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"});
    Rgb24 img;
    if (r.exitCode != 0 || r.out.size() != size_t(width) * size_t(height) * 3) return img;
    img.width = width;
    img.height = height;
    img.bytes = r.out;
    return img;
}

RunResult exportWith(const QString& out, const QStringList& extra) {
    QStringList args{"export", "pattern:bars:320x180", "--out", out, "--max-frames", "1", "--engine", "cpu",
                     "--scopes", "waveform,parade,vectorscope", "--size", "640x360"};
    args << extra;
    return cudascope(args);
}

}  // namespace

TEST(ScopeOptions, BadValuesAreUsageErrors) {
    QTemporaryDir dir;
    const QString out = dir.path() + "/x";
    expectExportUsageError(exportWith(out, {"--waveform-mode", "rgbw"}), "cudascope export: --waveform-mode must be luma, rgb or yrgb, not 'rgbw'");
    expectExportUsageError(exportWith(out, {"--trace-colour", "Green"}), "cudascope export: --trace-colour must be channel, green or white, not 'Green'");
    expectExportUsageError(exportWith(out, {"--vectorscope-zoom", "3"}), "cudascope export: --vectorscope-zoom must be 1, 2, 4, 8 or 16, not '3'");
    expectExportUsageError(exportWith(out, {"--reference-lines", "5%,120%"}),
                     "cudascope export: --reference-lines has '120%' beyond 109%, not '5%,120%'");
    expectExportUsageError(exportWith(out, {"--reference-lines", "16,16"}), "cudascope export: --reference-lines has '16' twice, not '16,16'");
    expectExportUsageError(exportWith(out, {"--reference-lines", "5 %"}),
                     "cudascope export: --reference-lines must be a comma list of levels (5%, 16:8, 64:10 or a code value at the "
                     "source's depth) or none, not '5 %'");
    expectExportUsageError(exportWith(out, {"--peaking-colour", "ff00"}),
                     "cudascope export: --peaking-colour must be red, yellow, green, cyan, blue, magenta, white or RRGGBB (hex), not 'ff00'");
    expectExportUsageError(exportWith(out, {"--waveform-mode", "yrgb", "--parade", "ycbcr"}),
                     "cudascope export: --waveform-mode yrgb draws the R'G'B' parade's counts: it cannot go with --parade ycbcr");
    EXPECT_FALSE(QFile::exists(out));
}

TEST(ScopeOptions, ModesLinesAndColoursReachTheImagesAndTheReport) {
    QTemporaryDir dir;
    const auto luma = exportWith(dir.path() + "/luma", {});
    ASSERT_EQ(luma.exitCode, 0) << luma.err;
    const auto styled = exportWith(dir.path() + "/styled", {"--waveform-mode", "yrgb", "--reference-lines", "5%,95%,16:8,235:8",
                                                           "--trace-colour", "white", "--vectorscope-zoom", "2",
                                                           "--peaking-colour", "00ff00", "--preview", "peaking"});
    ASSERT_EQ(styled.exitCode, 0) << styled.err;
    const auto report = readJson(dir.path().toStdString() + "/styled/report.json");
    const QJsonObject scopes = report["scopes"].toObject();
    EXPECT_EQ(scopes["waveform_mode"].toString(), "yrgb");
    EXPECT_EQ(scopes["trace_colour"].toString(), "white");
    EXPECT_EQ(scopes["reference_lines"].toString(), "5%,95%,16:8,235:8");
    EXPECT_EQ(readJson(dir.path().toStdString() + "/luma/report.json")["scopes"].toObject()["waveform_mode"].toString(), "luma");
    const Rgb24 a = decodePng(dir.path() + "/luma/000000-waveform.png", 640, 360);
    const Rgb24 b = decodePng(dir.path() + "/styled/000000-waveform.png", 640, 360);
    ASSERT_EQ(a.width, 640);
    ASSERT_EQ(b.width, 640);
    EXPECT_NE(a.bytes, b.bytes);
    // A reference line's cyan somewhere in the YRGB image, none in the luma one.
    auto cyanPixels = [](const Rgb24& img) {
        int n = 0;
        for (int y = 0; y < img.height; ++y)
            for (int x = 0; x < img.width; ++x) n += img.at(x, y, 2) > 150 && img.at(x, y, 1) > 150 && img.at(x, y, 0) < 120;
        return n;
    };
    EXPECT_GT(cyanPixels(b), 200);
    EXPECT_EQ(cyanPixels(a), 0);
    // Peaking paints green.
    const Rgb24 peaking = decodePng(dir.path() + "/styled/000000-preview-peaking.png", 320, 180);
    ASSERT_EQ(peaking.width, 320);
    int green = 0;
    for (int y = 0; y < peaking.height; ++y)
        for (int x = 0; x < peaking.width; ++x) green += peaking.at(x, y, 1) == 255 && peaking.at(x, y, 0) == 0 && peaking.at(x, y, 2) == 0;
    EXPECT_GT(green, 10);
}
