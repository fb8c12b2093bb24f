// `cudascope qc`: does the metadata tell the truth (app/qc/QcMetadata.h), on clips the ffmpeg
// CLI makes here, tagged wrongly on purpose, beside correctly tagged controls:
//  - field order: a scrolling pattern interlaced bottom field first, flagged top field first
//    (the container's field order, and MPEG-2's per-picture flags), flagged progressive, and
//    flagged bff (no event); each frame's idet verdicts in qc.json and qc.csv;
//  - range: a 0..255 ramp tagged limited (range_tag events), a 16..235 ramp tagged full
//    (legal content under a full-range tag), and both correctly tagged;
//  - primaries: BT.709 content (the pattern at 5% saturation: dark pixels' chromaticities are
//    far from the white point at higher ones) converted into BT.2020 and tagged BT.2020
//    (inside BT.709: fail),
//    the saturated pattern tagged BT.2020 (beyond BT.709: pass);
//  - HDR (libx265): a PQ grey with MaxCLL/MaxFALL signalled far above, close to and below the
//    measured, and a P3-D65 mastering display against grey (inside) and the BT.2020 pattern
//    (outside P3); NAME.qc.html's verdicts read back equal to NAME.qc.json's.
#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>

#include "CliRunner.h"

namespace cs::testing {
namespace {

TEST(QcMetadata, FieldOrderEventsWhereTheFlagContradictsIdet) {
    QTemporaryDir dir;
    const QString content = "testsrc2=size=128x96:rate=50:d=0.4,scroll=h=0.03:v=0.02,format=yuv420p,interlace=scan=bff";
    const std::pair<QString, QStringList> clips[] = {
        {"tt.mkv", {"-c:v", "ffv1", "-field_order", "tt"}},
        {"progressive.mkv", {"-c:v", "ffv1", "-field_order", "progressive"}},
        {"bb.mkv", {"-c:v", "ffv1", "-field_order", "bb"}},
        {"top.mkv", {"-c:v", "mpeg2video", "-q:v", "2", "-flags", "+ildct+ilme", "-top", "1"}}};
    QStringList inputs;
    for (const auto& [name, args] : clips) {
        const RunResult r = ffmpeg(QStringList{"-f", "lavfi", "-i", content} + args + QStringList{dir.path() + "/" + name});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        inputs << dir.path() + "/" + name;
    }
    const QString out = dir.path() + "/qc";
    const RunResult qc = cudascope(QStringList{"qc"} + inputs + QStringList{"--out", out, "--engine", "cpu", "--no-qctools", "--policy", "detectors"});
    ASSERT_EQ(qc.exitCode, 0) << qc.err;
    const std::pair<QString, QString> expected[] = {{"tt.mkv", "flagged tff, detected bff (idet, multi-frame)"},
                                                    {"progressive.mkv", "flagged progressive, detected bff (idet, multi-frame)"},
                                                    {"bb.mkv", ""},
                                                    {"top.mkv", "flagged tff, detected bff (idet, multi-frame)"}};
    for (const auto& [name, message] : expected) {
        const QJsonObject report = readJson((out + "/" + name + ".qc.json").toStdString());
        const QJsonArray frames = report["frames"].toArray();
        ASSERT_EQ(frames.size(), 10) << name.toStdString();
        // Each frame's verdicts add up to the tail's idet counts (equal to FFmpeg's: test_qc_scenes).
        std::map<QString, int> multiple;
        for (const auto& f : frames) ++multiple[f.toObject()["field"].toObject()["multiple"].toString()];
        const QJsonObject counts = report["idet"].toObject()["multiple"].toObject();
        for (const char* type : {"tff", "bff", "progressive", "undetermined"})
            EXPECT_EQ(multiple[type], counts[type].toInt(-1)) << name.toStdString() << " " << type;
        EXPECT_EQ(counts["bff"].toInt(), 10) << name.toStdString();
        const auto events = eventsOf(report, "field_order");
        const QJsonObject v = verdictOf(report, "detectors", "field_order");
        if (message.isEmpty()) {
            EXPECT_TRUE(events.empty()) << name.toStdString();
            EXPECT_EQ(v["verdict"].toString(), "pass") << name.toStdString();
            EXPECT_EQ(frames[3].toObject()["field"].toObject()["signalled"].toString(), "bff");
            continue;
        }
        ASSERT_EQ(events.size(), 1u) << name.toStdString();
        EXPECT_EQ(events[0]["first_frame"].toInt(), 0) << name.toStdString();
        EXPECT_EQ(events[0]["last_frame"].toInt(), 9) << name.toStdString();
        EXPECT_EQ(events[0]["first_timecode"].toString(), frames[0].toObject()["timecode"].toString());
        EXPECT_EQ(events[0]["message"].toString(), message);
        EXPECT_EQ(v["verdict"].toString(), "fail") << name.toStdString();
        EXPECT_EQ(v["evidence"].toObject()["count"].toInt(), 1);
    }
    // The CSV's columns carry them too.
    const std::string csv = readFile((out + "/tt.mkv.qc.csv").toStdString());
    EXPECT_NE(csv.find("field_multiple,field_signalled,field_single"), std::string::npos) << csv.substr(0, 400);
    EXPECT_NE(csv.find("\"bff\",\"tff\",\"bff\""), std::string::npos);
}

// The range tags against the codes used, and the primaries tag against the gamut, in one run.
TEST(QcMetadata, RangeAndPrimariesTagsAgainstTheContent) {
    QTemporaryDir dir;
    const std::pair<QString, QStringList> clips[] = {
        {"full_as_limited.mkv", {"lum='X*255/63'", "tv"}},
        {"legal_as_full.mkv", {"lum='16+X*219/63'", "pc"}},
        {"legal.mkv", {"lum='16+X*219/63'", "tv"}},
        {"full.mkv", {"lum='X*255/63'", "pc"}}};
    QStringList inputs;
    for (const auto& [name, args] : clips) {
        const RunResult r = ffmpeg({"-f", "lavfi", "-i", "color=c=gray:size=64x48:rate=25:d=0.32,format=yuv420p,geq=" + args[0] + ":cb=128:cr=128",
                                    "-c:v", "ffv1", "-color_range", args[1], "-colorspace", "bt709", dir.path() + "/" + name});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        inputs << dir.path() + "/" + name;
    }
    const QString pattern = "testsrc2=size=64x48:rate=25:d=0.2,format=yuv420p";
    const QStringList tags{"-color_primaries", "bt2020", "-colorspace", "bt2020nc", "-color_trc", "bt2020-10", "-color_range", "tv"};
    ASSERT_EQ(ffmpeg(QStringList{"-f", "lavfi", "-i", pattern + ",hue=s=0.05,colorspace=all=bt2020:iall=bt709:format=yuv420p", "-c:v", "ffv1"} +
                     tags + QStringList{dir.path() + "/converted.mkv"})
                  .exitCode,
              0);
    ASSERT_EQ(ffmpeg(QStringList{"-f", "lavfi", "-i", pattern, "-c:v", "ffv1"} + tags + QStringList{dir.path() + "/wide.mkv"}).exitCode, 0);
    inputs << dir.path() + "/converted.mkv" << dir.path() + "/wide.mkv";
    const QString out = dir.path() + "/qc";
    const RunResult qc = cudascope(QStringList{"qc"} + inputs + QStringList{"--out", out, "--engine", "cpu", "--no-qctools", "--policy", "metadata"});
    ASSERT_EQ(qc.exitCode, 0) << qc.err;
    const QJsonObject converted = verdictOf(readJson((out + "/converted.mkv.qc.json").toStdString()), "metadata", "bt2020_in_bt709");
    EXPECT_EQ(converted["verdict"].toString(), "fail") << converted["reason"].toString().toStdString();
    EXPECT_LE(converted["evidence"].toObject()["worst_share"].toDouble(1), 0.001);
    const QJsonObject wide = verdictOf(readJson((out + "/wide.mkv.qc.json").toStdString()), "metadata", "bt2020_in_bt709");
    EXPECT_EQ(wide["verdict"].toString(), "pass") << wide["reason"].toString().toStdString();
    EXPECT_GT(wide["evidence"].toObject()["worst_share"].toDouble(0), 0.1);
    const std::pair<QString, QString> verdicts[] = {
        {"full_as_limited.mkv", "fail"}, {"legal_as_full.mkv", "fail"}, {"legal.mkv", "pass"}, {"full.mkv", "pass"}};
    for (const auto& [name, verdict] : verdicts) {
        const QJsonObject report = readJson((out + "/" + name + ".qc.json").toStdString());
        const QJsonObject v = verdictOf(report, "metadata", "range_tag");
        EXPECT_EQ(v["verdict"].toString(), verdict) << name.toStdString() << ": " << v["reason"].toString().toStdString();
        const auto events = eventsOf(report, "range_tag");
        EXPECT_EQ(events.size(), name == "full_as_limited.mkv" ? 1u : 0u) << name.toStdString();
        if (name == "full_as_limited.mkv" && !events.empty()) {
            EXPECT_EQ(events[0]["first_frame"].toInt(), 0);
            EXPECT_EQ(events[0]["last_frame"].toInt(), 7);
            EXPECT_EQ(events[0]["message"].toString().left(48), "limited-range tag on full-range content: Y 0..25");
        }
        if (name == "legal_as_full.mkv") {
            EXPECT_EQ(v["evidence"].toObject()["y_min"].toInt(), 16);
            EXPECT_EQ(v["evidence"].toObject()["y_max"].toInt(), 235);
        }
        // SDR sources: the HDR rules do not apply; nothing is tagged BT.2020.
        EXPECT_EQ(verdictOf(report, "metadata", "content_light_level")["verdict"].toString(), "not_applicable");
        EXPECT_EQ(verdictOf(report, "metadata", "mastering_gamut")["verdict"].toString(), "not_applicable");
        EXPECT_EQ(verdictOf(report, "metadata", "bt2020_in_bt709")["verdict"].toString(), "not_applicable");
    }
}

TEST(QcMetadata, HdrLightLevelsAndMasteringDisplay) {
    QTemporaryDir dir;
    const QString p3 = "master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1)";
    const std::pair<QString, QString> clips[] = {
        {"over.mkv", "max-cll=1000,400"}, {"close.mkv", "max-cll=100,100"}, {"under.mkv", "max-cll=50,20"}, {"wide.mkv", "max-cll=10000,10000"}};
    QStringList inputs;
    for (const auto& [name, cll] : clips) {
        const QString source = name == "wide.mkv" ? "testsrc2=size=64x64:rate=25:d=0.2" : "color=c=0x808080:size=64x64:rate=25:d=0.2";
        const RunResult r = ffmpeg({"-f", "lavfi", "-i", source + ",format=yuv420p10le", "-c:v", "libx265", "-preset", "ultrafast",
                                    "-x265-params", cll + ":" + p3 + ":log-level=error", "-color_primaries", "bt2020", "-color_trc",
                                    "smpte2084", "-colorspace", "bt2020nc", dir.path() + "/" + name});
        if (r.exitCode != 0 && r.err.find("libx265") != std::string::npos) GTEST_SKIP() << "no libx265 here: " << r.err;
        ASSERT_EQ(r.exitCode, 0) << r.err;
        inputs << dir.path() + "/" + name;
    }
    const QString out = dir.path() + "/qc";
    const RunResult qc = cudascope(QStringList{"qc"} + inputs + QStringList{"--out", out, "--engine", "cpu", "--no-qctools", "--gamut-target", "p3",
                                                        "--policy", "metadata"});
    ASSERT_EQ(qc.exitCode, 0) << qc.err;
    const auto report = [&](const char* name) { return readJson((out + "/" + name).toStdString() + ".qc.json"); };
    const QJsonObject over = verdictOf(report("over.mkv"), "metadata", "content_light_level");
    EXPECT_EQ(over["verdict"].toString(), "fail") << over["reason"].toString().toStdString();
    const QJsonObject ev = over["evidence"].toObject();
    EXPECT_EQ(ev["signalled_max_cll"].toDouble(), 1000);
    EXPECT_EQ(ev["signalled_max_fall"].toDouble(), 400);
    EXPECT_EQ(ev["from"].toString(), "sei");
    // The measured levels are the summary's MaxCLL / MaxFALL (CTA-861.3 over the frames' "hdr").
    const double measured = ev["measured_max_cll"].toDouble();
    EXPECT_NEAR(measured, 92.2, 5.0);   // 10-bit code 512: PQ 0.5114
    EXPECT_DOUBLE_EQ(ev["measured_max_fall"].toDouble(), measured);   // a flat grey
    const QJsonObject close = verdictOf(report("close.mkv"), "metadata", "content_light_level");
    EXPECT_EQ(close["verdict"].toString(), "pass") << close["reason"].toString().toStdString();
    const QJsonObject under = verdictOf(report("under.mkv"), "metadata", "content_light_level");
    EXPECT_EQ(under["verdict"].toString(), "fail") << under["reason"].toString().toStdString();
    EXPECT_NE(under["reason"].toString().indexOf("below the measured"), -1);
    // The P3-D65 mastering display: the grey lies inside, the BT.2020 pattern beyond it.
    const QJsonObject inside = verdictOf(report("close.mkv"), "metadata", "mastering_gamut");
    EXPECT_EQ(inside["verdict"].toString(), "pass") << inside["reason"].toString().toStdString();
    const QJsonObject outside = verdictOf(report("wide.mkv"), "metadata", "mastering_gamut");
    EXPECT_EQ(outside["verdict"].toString(), "fail") << outside["reason"].toString().toStdString();
    EXPECT_EQ(outside["evidence"].toObject()["frames_above"].toInt(), 5);
    EXPECT_EQ(report("wide.mkv")["signalled"].toObject()["mastering_display"].toObject()["matches"].toString(), "p3-d65");
    // NAME.qc.html shows the metadata rules with the rest: read back, equal to qc.json's.
    const RunResult check = runProgram("python3", {QString(CS_TEST_SOURCE_DIR) + "/tests/app/check_qc_html.py", out + "/over.mkv.qc.html",
                                                   out + "/over.mkv.qc.json", out + "/wide.mkv.qc.html", out + "/wide.mkv.qc.json"});
    EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
}

}  // namespace
}  // namespace cs::testing
