// Inputs that broke the decode path (found with fuzz/ or in its harness), kept in
// tests/data/fuzz/file_source and opened as the CLI and the window open files. Under the
// sanitizer presets these fail on the undefined behaviour they once caused; everywhere
// they assert what the input must give.
#include <gtest/gtest.h>

#include "DecodeTestUtil.h"

namespace cs {
namespace {

std::string fuzzInput(const std::string& name) { return std::string(CS_TEST_DATA_DIR) + "/fuzz/file_source/" + name; }

// A Matroska header stating 1.9e10 s in a nanosecond time base: the middle, where the
// window's slider goes, is 9.5e18 ticks, beyond int64. The seek saturates and lands past
// the last frame; the start is still reachable.
TEST(FuzzRegression, SeekBeyondTheTimeBaseRange) {
    const std::string clip = fuzzInput("mkv-duration-1.9e10s-in-ns.mkv");
    auto source = test::openOrFail(clip);
    ASSERT_TRUE(source);
    EXPECT_NEAR(source->info().duration, 1.9e10, 1e4);
    ASSERT_TRUE(source->seek(source->info().duration / 2));
    VideoFrame frame;
    EXPECT_EQ(source->read(frame).status, ReadStatus::EndOfStream);
    ASSERT_TRUE(source->seek(0.0));
    EXPECT_EQ(test::readAll(*source).size(), 3u);
}

}  // namespace
}  // namespace cs
