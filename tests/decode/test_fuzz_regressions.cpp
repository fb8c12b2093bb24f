// Inputs that broke decode/ (found with fuzz/ or in its harness), kept in tests/data/fuzz:
// media files (file_source/) opened as the CLI and the window open files, and strings
// (parsers/) given to the parser that failed on them. Under the sanitizer presets the files
// fail on the undefined behaviour they once caused; everywhere each test asserts what the
// input must give.
#include <gtest/gtest.h>

#include "DecodeTestUtil.h"
#include "decode/LiveInput.h"

namespace cs {
namespace {

std::string fuzzInput(const std::string& name) { return std::string(CS_TEST_DATA_DIR) + "/fuzz/" + name; }

// A Matroska header stating 1.9e10 s in a nanosecond time base: its middle is 9.5e18 ticks,
// beyond int64. The seek saturates and lands past the last frame; the start is still
// reachable. The duration stated is where the packets end (its three frames all at 0, 40 ms
// long), not the header's.
TEST(FuzzRegression, SeekBeyondTheTimeBaseRange) {
    const std::string clip = fuzzInput("file_source/mkv-duration-1.9e10s-in-ns.mkv");
    auto source = test::openOrFail(clip);
    ASSERT_TRUE(source);
    EXPECT_NEAR(source->info().duration, 0.04, 1e-6);
    ASSERT_TRUE(source->seek(1.9e10 / 2));
    VideoFrame frame;
    EXPECT_EQ(source->read(frame).status, ReadStatus::EndOfStream);
    ASSERT_TRUE(source->seek(0.0));
    EXPECT_EQ(test::readAll(*source).size(), 3u);
}

// An MPEG-TS MPEG-2 stream whose damaged sequence extension leaves matrix 155 in the
// decoded frame: no AVColorSpace has that value (loading it as one is undefined). Every
// frame decodes with the tag read as unspecified: the matrix assumed from the size.
TEST(FuzzRegression, ColourTagOutsideItsEnumReadsAsUnspecified) {
    auto source = test::openOrFail(fuzzInput("file_source/mpegts-mpeg2-colorspace-155.ts"));
    ASSERT_TRUE(source);
    const auto frames = test::readAll(*source);
    ASSERT_FALSE(frames.empty());
    for (const auto& f : frames) {
        EXPECT_FALSE(f.view.color.matrixTagged);
        EXPECT_EQ(f.view.color.matrix, Matrix::Bt709);
    }
}

// A parameter named twice whose name holds a newline ("\n&\n" after the '?'): the message
// echoed the name raw and ran over two lines; names are quoted as values are.
TEST(FuzzRegression, RepeatedParameterNameIsQuoted) {
    const auto bytes = test::readFile(fuzzInput("parsers/live-parameter-newline-given-twice"));
    const std::string query(bytes.begin(), bytes.end());
    ASSERT_EQ(query, "\n&\n");
    for (const std::string base : {"v4l2:/dev/video0?", "udp://127.0.0.1:5000?"}) {
        const std::string input = base + query;
        auto parsed = parseLiveInput(input);
        ASSERT_FALSE(parsed) << input;
        EXPECT_EQ(parsed.message(), input + ": the parameter '\\n' is given twice");
    }
}

}  // namespace
}  // namespace cs
