// qc and probe with sound, end to end through the binary on clips the ffmpeg CLI makes:
// silence where FFmpeg's silencedetect finds it, clipping where the clip was clipped, the
// integrated loudness and true peak as FFmpeg's ebur128 filter reads them, each frame's
// audio in that frame, and inputs without audio checked as before.
#include <gtest/gtest.h>

#include <QJsonArray>
#include <QRegularExpression>

#include <cmath>
#include <fstream>

#include "tests/app/CliRunner.h"

using namespace cs::testing;

namespace {

// 10 s: a 440 Hz tone at 0.3 (-10.5 dBFS), silent from 3 to 6 s, clipped (twice full scale)
// from 7 to 7.5 s.
QString soundClip(const QTemporaryDir& dir) {
    const QString path = dir.path() + "/sound.mkv";
    const QString tone = "if(between(t\\,3\\,6)\\,0\\,if(between(t\\,7\\,7.5)\\,max(-1\\,min(1\\,2*sin(2*PI*440*t)))\\,0.3*sin(2*PI*440*t)))";
    const RunResult r = ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25:d=10", "-f", "lavfi", "-i",
                                "aevalsrc=exprs=" + tone + "|" + tone + ":s=48000:d=10", "-c:v", "libx264", "-preset", "ultrafast",
                                "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", path});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return path;
}

double capture(const std::string& text, const char* pattern) {
    const auto m = QRegularExpression(pattern).match(QString::fromStdString(text));
    return m.hasMatch() ? m.captured(1).toDouble() : NAN;
}

TEST(QcAudio, SilenceAndClippingAtTheirTimes) {
    QTemporaryDir dir;
    const QString clip = soundClip(dir);
    const RunResult r = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QJsonObject report = readJson((dir.path() + "/qc/sound.mkv.qc.json").toStdString());
    // FFmpeg's silencedetect on the same file (Matroska's millisecond timestamps: within 1 ms).
    const RunResult ref = runProgram(CS_TEST_FFMPEG, {"-hide_banner", "-nostdin", "-i", clip, "-af", "silencedetect", "-f", "null", "-"});
    const double start = capture(ref.err, R"(silence_start: ([0-9.]+))"), end = capture(ref.err, R"(silence_end: ([0-9.]+))");
    const auto silence = eventsOf(report, "silence");
    ASSERT_EQ(silence.size(), 1u) << r.err;
    EXPECT_NEAR(silence[0]["start"].toDouble(), start, 0.001);
    EXPECT_NEAR(silence[0]["end"].toDouble(), end, 0.001);
    EXPECT_EQ(silence[0]["first_frame"].toInt(), 75);
    EXPECT_EQ(silence[0]["last_frame"].toInt(), 150);
    const auto clipping = eventsOf(report, "clipping");
    ASSERT_EQ(clipping.size(), 1u);
    EXPECT_NEAR(clipping[0]["start"].toDouble(), 7.0, 0.002);
    EXPECT_NEAR(clipping[0]["end"].toDouble(), 7.5, 0.002);
    EXPECT_EQ(clipping[0]["first_frame"].toInt(), 175);
    EXPECT_TRUE(eventsOf(report, "silent_channel").empty());
    EXPECT_EQ(eventsOf(report, "loudness").size(), 1u);   // about -11 LUFS against R128's -23
    // Each frame's audio is its own: frame 74 has the tone, 76 is silent (null peaks).
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 250);
    EXPECT_NEAR(frames[74].toObject()["audio"].toObject()["peak"].toObject()["L"].toDouble(), -10.46, 0.05);
    EXPECT_TRUE(frames[76].toObject()["audio"].toObject()["peak"].toObject()["L"].isNull());
    EXPECT_EQ(frames[76].toObject()["audio"].toObject()["samples"].toInt(), 1920);
    EXPECT_EQ(report["audio"].toObject()["layout"].toString(), "stereo (assumed)");
    // The CSV has the audio columns.
    const std::string csv = readFile((dir.path() + "/qc/sound.mkv.qc.csv").toStdString());
    EXPECT_NE(csv.find("audio_peak_L"), std::string::npos);
    EXPECT_NE(csv.find("audio_short_term"), std::string::npos);
}

TEST(QcAudio, IntegratedLoudnessAndTruePeakAsFfmpegReadsThem) {
    QTemporaryDir dir;
    const QString clip = dir.path() + "/noise.mov";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25:d=8", "-f", "lavfi", "-i",
                      "anoisesrc=c=pink:a=0.25:d=8:r=48000:seed=5", "-f", "lavfi", "-i", "anoisesrc=c=pink:a=0.2:d=8:r=48000:seed=6",
                      "-filter_complex", "[1][2]amerge=inputs=2[a]", "-map", "0:v", "-map", "[a]", "-c:v", "libx264", "-preset",
                      "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "pcm_s24le", clip})
                  .exitCode,
              0);
    const RunResult r = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools", "--loudness-target", "a85"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QJsonObject summary = readJson((dir.path() + "/qc/noise.mov.qc.json").toStdString())["audio_summary"].toObject();
    const RunResult ref = runProgram(CS_TEST_FFMPEG, {"-hide_banner", "-nostdin", "-i", clip, "-af",
                                                      "ebur128=peak=true:metadata=1,ametadata=print:file=" + dir.path() + "/r128.txt",
                                                      "-f", "null", "-"});
    const std::string log = readFile((dir.path() + "/r128.txt").toStdString());
    const auto last = [&](const char* key) {
        const auto it = QRegularExpression(QString("lavfi\\.r128\\.") + key + "=(-?[0-9.]+)").globalMatch(QString::fromStdString(log));
        double v = NAN;
        auto i = it;
        while (i.hasNext()) v = i.next().captured(1).toDouble();
        return v;
    };
    EXPECT_NEAR(summary["integrated"].toDouble(), last("I"), 0.1);
    EXPECT_NEAR(summary["max_true_peak"].toDouble(), 20 * std::log10(last("true_peak")), 0.2);
    EXPECT_EQ(summary["target"].toObject()["name"].toString(), "a85");
    EXPECT_EQ(summary["target"].toObject()["integrated"].toDouble(), -24.0);
    EXPECT_EQ(summary["channels"].toObject().keys(), (QStringList{"L", "R"}));
}

TEST(QcAudio, AnInputWithoutAudioIsCheckedAsBefore) {
    QTemporaryDir dir;
    const QString clip = dir.path() + "/mute.mkv";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25:d=1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt",
                      "yuv420p", clip})
                  .exitCode,
              0);
    const RunResult r = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QJsonObject report = readJson((dir.path() + "/qc/mute.mkv.qc.json").toStdString());
    EXPECT_FALSE(report.contains("audio"));
    EXPECT_FALSE(report.contains("audio_summary"));
    EXPECT_FALSE(report["frames"].toArray()[0].toObject().contains("audio"));
    EXPECT_TRUE(report["warnings"].toArray().isEmpty());
}

TEST(QcAudio, LoudnessTargetAndThresholdErrors) {
    QTemporaryDir dir;
    const RunResult bad = cudascope({"qc", "x.mkv", "--out", dir.path(), "--loudness-target", "loud"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--loudness-target must be r128 or a85, not 'loud'"), std::string::npos) << bad.err;
    const QString file = dir.path() + "/t.json";
    {
        std::ofstream(file.toStdString()) << R"({"loudness": {"target": "louder"}})";
    }
    const RunResult badFile = cudascope({"qc", "x.mkv", "--out", dir.path(), "--thresholds", file});
    EXPECT_EQ(badFile.exitCode, 2);
    EXPECT_NE(badFile.err.find("loudness.target must be \"r128\" or \"a85\""), std::string::npos) << badFile.err;
    {
        std::ofstream(file.toStdString()) << R"({"clipping": {"min_run": 2.5}})";
    }
    const RunResult badRun = cudascope({"qc", "x.mkv", "--out", dir.path(), "--thresholds", file});
    EXPECT_EQ(badRun.exitCode, 2);
    EXPECT_NE(badRun.err.find("clipping.min_run must be a whole number"), std::string::npos) << badRun.err;
}

TEST(QcAudio, ACustomTargetFromTheThresholdsFile) {
    QTemporaryDir dir;
    const QString clip = soundClip(dir);
    const QString file = dir.path() + "/t.json";
    {
        std::ofstream(file.toStdString()) << R"({"loudness": {"integrated": -8, "tolerance": 1}, "silence": {"min_duration": 4}})";
    }
    const RunResult r = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools", "--thresholds", file});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QJsonObject report = readJson((dir.path() + "/qc/sound.mkv.qc.json").toStdString());
    EXPECT_TRUE(eventsOf(report, "loudness").empty());   // -7.8 LUFS
    EXPECT_TRUE(eventsOf(report, "silence").empty());   // 3 s of silence, 4 s asked for
    EXPECT_EQ(report["audio_summary"].toObject()["target"].toObject()["name"].toString(), "custom");
    EXPECT_EQ(report["thresholds"].toObject()["loudness"].toObject()["target"].toString(), "custom");
}

TEST(ExportAudio, ReportCarriesEachFramesAudioAndTheSummary) {
    QTemporaryDir dir;
    const QString clip = soundClip(dir);
    const RunResult r = cudascope({"export", clip, "--out", dir.path() + "/out", "--engine", "cpu", "--scopes", "stats",
                                   "--max-frames", "100", "--no-npy"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QJsonObject report = readJson((dir.path() + "/out/report.json").toStdString());
    EXPECT_EQ(report["audio"].toObject()["sample_rate"].toInt(), 48000);
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 100);
    EXPECT_NEAR(frames[10].toObject()["audio"].toObject()["true_peak"].toObject()["R"].toDouble(), -10.46, 0.1);
    EXPECT_TRUE(frames[80].toObject()["audio"].toObject()["peak"].toObject()["R"].isNull());   // 3.2 s: silent
    // The summary covers the whole audio, past the frames exported.
    EXPECT_NEAR(report["audio_summary"].toObject()["seconds"].toDouble(), 10.0, 0.01);
    EXPECT_NEAR(report["audio_summary"].toObject()["max_true_peak"].toDouble(), 0.0, 0.6);   // the clipped part
}

TEST(ProbeAudio, ListsEveryAudioStream) {
    QTemporaryDir dir;
    const QString clip = dir.path() + "/two.mkv";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25:d=1", "-f", "lavfi", "-i", "sine=d=1:sample_rate=48000", "-map",
                      "0:v", "-map", "1:a", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-c:a:0", "aac", "-ac:a:0", "2",
                      "-c:a:1", "flac", "-sample_fmt:a:1", "s32", "-metadata:s:a:1", "language=ger", clip})
                  .exitCode,
              0);
    const RunResult r = cudascope({"probe", clip});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("audio #1:    aac, 48000 Hz, stereo (L R), fltp, default"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("audio #2:    flac, 48000 Hz, mono (M), 24-bit, s32, language ger"), std::string::npos) << r.out;
}

}  // namespace
