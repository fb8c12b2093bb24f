// `cudascope export --preview gamut` end to end on both engines: a 10-bit 4:2:0 Y4M clip
// (written here, no ffmpeg CLI needed) whose left half is BT.2020's green primary and right
// half grey, read with --matrix 2020 (untagged primaries follow the BT.2020 matrix). The CPU
// engine paints the green half (the preview differs from the picture; report.json counts half
// the pixels outside BT.709); the CUDA engine, where it runs, writes the very same preview
// file and counts, frame by frame (skipped without a CUDA engine).
#include <gtest/gtest.h>

#include <QJsonArray>

#include <fstream>
#include <string>

#include "CliRunner.h"

namespace cs::testing {
namespace {

constexpr int kW = 128, kH = 72, kFrames = 2;

// BT.2020 NCL, limited 10-bit: R'G'B' (0, 1, 0) is Y' 658, Cb 189, Cr 100; grey 502, 512, 512.
std::string writeWideClip(const QString& dir) {
    const std::string path = (dir + "/wide.y4m").toStdString();
    std::ofstream out(path, std::ios::binary);
    out << "YUV4MPEG2 W" << kW << " H" << kH << " F25:1 Ip A1:1 C420p10\n";
    auto put = [&](int v) { out.put(char(v & 0xff)); out.put(char(v >> 8)); };
    for (int f = 0; f < kFrames; ++f) {
        out << "FRAME\n";
        for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) put(x < kW / 2 ? 658 : 502);
        for (int plane : {189, 100})
            for (int y = 0; y < kH / 2; ++y)
                for (int x = 0; x < kW / 2; ++x) put(x < kW / 4 ? plane : 512);
    }
    return path;
}

RunResult exportGamut(const std::string& clip, const QString& out, const char* engine, const char* target) {
    return cudascope({"export", QString::fromStdString(clip), "--out", out, "--engine", engine, "--hwdec", "none", "--matrix",
                      "2020", "--range", "limited", "--scopes", "picture,cie", "--preview", "gamut", "--gamut-target", target});
}

QString frameFile(const QString& dir, int frame, const char* name) {
    return dir + QStringLiteral("/%1-%2").arg(frame, 6, 10, QLatin1Char('0')).arg(QLatin1String(name));
}

constexpr const char* kTargets[] = {"bt709", "p3", "bt2020"};

// The CPU engine's exports of the clip against each target, in tmp/cpu-TARGET.
void exportOnCpu(const QTemporaryDir& tmp, const std::string& clip) {
    for (const char* target : kTargets) {
        SCOPED_TRACE(target);
        const QString out = tmp.path() + "/cpu-" + target;
        const RunResult c = exportGamut(clip, out, "cpu", target);
        ASSERT_EQ(c.exitCode, 0) << c.err;
        const QJsonArray frames = readJson((out + "/report.json").toStdString())["frames"].toArray();
        ASSERT_EQ(frames.size(), kFrames);
        const bool outside = std::string(target) != "bt2020";   // BT.2020's green is outside BT.709 and P3
        for (int f = 0; f < kFrames; ++f) {
            EXPECT_EQ(frames[f].toObject()["gamut"].toObject()["outside"].toInt(-1), outside ? kW * kH / 2 : 0);
            const std::string preview = readFile(frameFile(out, f, "preview-gamut.png").toStdString());
            const std::string picture = readFile(frameFile(out, f, "picture.png").toStdString());
            ASSERT_FALSE(preview.empty());
            if (outside) {
                EXPECT_NE(preview, picture);
            }
        }
    }
}

TEST(GamutPreviewExport, CpuEnginePaintsTheOutsideHalf) {
    QTemporaryDir tmp;
    exportOnCpu(tmp, writeWideClip(tmp.path()));
}

TEST(GamutPreviewExport, CudaEngineWritesTheCpuEnginesPreview) {
    QTemporaryDir tmp;
    const std::string clip = writeWideClip(tmp.path());
    const RunResult probe = exportGamut(clip, tmp.path() + "/probe", "cuda", "bt709");
    if (probe.exitCode != 0 && probe.err.find("CUDA engine unavailable") != std::string::npos)
        GTEST_SKIP() << "no CUDA engine here: " << probe.err;
    ASSERT_EQ(probe.exitCode, 0) << probe.err;
    exportOnCpu(tmp, clip);
    for (const char* target : kTargets) {
        SCOPED_TRACE(target);
        const QString cpuOut = tmp.path() + "/cpu-" + target, cudaOut = tmp.path() + "/cuda-" + target;
        const RunResult g = exportGamut(clip, cudaOut, "cuda", target);
        ASSERT_EQ(g.exitCode, 0) << g.err;
        const QJsonObject report = readJson((cudaOut + "/report.json").toStdString());
        EXPECT_EQ(report["engine"].toString(), "cuda");
        const QJsonArray cpuFrames = readJson((cpuOut + "/report.json").toStdString())["frames"].toArray();
        const QJsonArray cudaFrames = report["frames"].toArray();
        ASSERT_EQ(cudaFrames.size(), kFrames);
        ASSERT_EQ(cpuFrames.size(), kFrames);
        for (int f = 0; f < kFrames; ++f) {
            EXPECT_EQ(cudaFrames[f].toObject()["gamut"].toObject(), cpuFrames[f].toObject()["gamut"].toObject()) << f;
            EXPECT_EQ(readFile(frameFile(cudaOut, f, "preview-gamut.png").toStdString()),
                      readFile(frameFile(cpuOut, f, "preview-gamut.png").toStdString()))
                << "frame " << f << ": the preview files differ";
        }
    }
}

}  // namespace
}  // namespace cs::testing
