// core/Parse: the one parser of typed numbers, sizes, rates and lists. Whole text or
// nothing, exact limits, and messages that echo the text on one line.
#include <gtest/gtest.h>

#include "core/Parse.h"

namespace cs {
namespace {

TEST(ParseWholeNumber, AcceptsDigitsWithinLimits) {
    EXPECT_EQ(*parseWholeNumber("0", 0, 10), 0);
    EXPECT_EQ(*parseWholeNumber("10", 0, 10), 10);
    EXPECT_EQ(*parseWholeNumber("007", 0, 10), 7);
    EXPECT_EQ(*parseWholeNumber("9223372036854775807", 0, INT64_MAX), INT64_MAX);
}

TEST(ParseWholeNumber, RefusesAnythingButDigits) {
    for (const char* bad : {"", " 5", "5 ", "+5", "-5", "5x", "0x10", "1e3", "5.0", "٣", "5\n"})
        EXPECT_FALSE(parseWholeNumber(bad, 0, 100)) << bad;
}

TEST(ParseWholeNumber, RefusesValuesOutsideTheLimitsAndBeyondInt64) {
    EXPECT_EQ(parseWholeNumber("11", 0, 10).message(), "must be a whole number from 0 to 10, not '11'");
    EXPECT_EQ(parseWholeNumber("-1", 0, 1024).message(), "must be a whole number from 0 to 1024, not '-1'");
    EXPECT_EQ(parseWholeNumber("1", 2, INT64_MAX).message(), "must be a whole number of at least 2, not '1'");
    EXPECT_FALSE(parseWholeNumber("9223372036854775808", 0, INT64_MAX));
    EXPECT_FALSE(parseWholeNumber("99999999999999999999999", 0, INT64_MAX));
}

TEST(ParseCount, IsAPositiveWholeNumber) {
    EXPECT_EQ(*parseCount("1"), 1);
    EXPECT_EQ(*parseCount("250"), 250);
    EXPECT_EQ(parseCount(" 5").message(), "must be a positive whole number, not ' 5'");
    EXPECT_EQ(parseCount("0").message(), "must be a positive whole number, not '0'");
    EXPECT_EQ(parseCount("-3").message(), "must be a positive whole number, not '-3'");
    EXPECT_EQ(parseCount("").message(), "must be a positive whole number, not ''");
    EXPECT_EQ(parseCount("101", 100).message(), "must be a positive whole number up to 100, not '101'");
    EXPECT_FALSE(parseCount("99999999999999999999"));
}

TEST(ParseSize, AcceptsWxHWithinLimits) {
    const Size min{64, 64}, max{8192, 8192};
    EXPECT_EQ(*parseSize("1024x540", min, max), (Size{1024, 540}));
    EXPECT_EQ(*parseSize("64X64", min, max), (Size{64, 64}));
    EXPECT_EQ(*parseSize("8192x8192", min, max), (Size{8192, 8192}));
}

TEST(ParseSize, RefusesOtherShapes) {
    const Size min{1, 1}, max{16384, 16384};
    for (const char* bad : {"64x64x64", "64", "x64", "64x", "64 x 64", " 64x64", "64x64 ", "64*64", "-64x64", "64x-64",
                            "0x10x", "64x64:", "", "x"})
        EXPECT_FALSE(parseSize(bad, min, max)) << bad;
    EXPECT_EQ(parseSize("64x64x64", Size{64, 64}, Size{8192, 8192}).message(),
              "must be WxH (from 64x64 to 8192x8192), not '64x64x64'");
}

TEST(ParseSize, RefusesSizesOutsideTheLimits) {
    const Size min{64, 64}, max{8192, 8192};
    EXPECT_EQ(parseSize("63x64", min, max).message(), "must be WxH from 64x64 to 8192x8192, not '63x64'");
    EXPECT_FALSE(parseSize("64x63", min, max));
    EXPECT_FALSE(parseSize("8193x64", min, max));
    EXPECT_FALSE(parseSize("64x8193", min, max));
    EXPECT_FALSE(parseSize("0x0", Size{1, 1}, max));
    EXPECT_FALSE(parseSize("99999999999999999999x64", min, max));
    EXPECT_FALSE(parseSize("4294967360x64", min, max));   // 2^32 + 64: must not wrap to 64
}

TEST(ParseSize, SyntaxAloneIsDigitsXDigits) {
    EXPECT_TRUE(isSizeSyntax("0x0"));
    EXPECT_TRUE(isSizeSyntax("99999999999999999999x1"));
    EXPECT_FALSE(isSizeSyntax("10bit"));
    EXPECT_FALSE(isSizeSyntax("1x2x3"));
    EXPECT_FALSE(isSizeSyntax("-5x10"));
}

TEST(ParseFrameRate, AcceptsWholeDecimalAndFraction) {
    EXPECT_DOUBLE_EQ(*parseFrameRate("30"), 30.0);
    EXPECT_DOUBLE_EQ(*parseFrameRate("29.97"), 29.97);
    EXPECT_DOUBLE_EQ(*parseFrameRate("30000/1001"), 30000.0 / 1001.0);
    EXPECT_DOUBLE_EQ(*parseFrameRate("100000"), 100000.0);
}

TEST(ParseFrameRate, RefusesEverythingElse) {
    for (const char* bad : {"", "0", "0.0", "0/1", "30/0", "-30", "+30", "1e2", "inf", "nan", "30.", ".5", "30 ", "30/",
                            "/2", "100001", "30000/1001/2", "29,97", "0x1e"})
        EXPECT_FALSE(parseFrameRate(bad)) << bad;
    EXPECT_NE(parseFrameRate("fast").message().find("not 'fast'"), std::string::npos);
}

TEST(ParseChoice, IsOneOfTheNames) {
    EXPECT_EQ(*parseChoice("cpu", {"auto", "cpu", "cuda"}), "cpu");
    EXPECT_EQ(parseChoice("CPU", {"auto", "cpu", "cuda"}).message(), "must be auto, cpu or cuda, not 'CPU'");
    EXPECT_FALSE(parseChoice("", {"auto", "cpu"}));
}

TEST(ParseList, KeepsTheOrderAndRefusesEmptyUnknownAndRepeatedItems) {
    const std::vector<std::string_view> names{"picture", "histogram", "waveform"};
    EXPECT_EQ(*parseList("waveform,picture", names), (std::vector<std::string>{"waveform", "picture"}));
    EXPECT_EQ(parseList("", names).message(), "is empty (a comma list of picture, histogram and waveform)");
    EXPECT_EQ(parseList("picture,,waveform", names).message(),
              "has an empty item in 'picture,,waveform' (a comma list of picture, histogram and waveform)");
    EXPECT_FALSE(parseList("picture,", names));
    EXPECT_FALSE(parseList(",picture", names));
    EXPECT_EQ(parseList("picture, waveform", names).message(),
              "has an unknown item ' waveform' (a comma list of picture, histogram and waveform)");
    EXPECT_EQ(parseList("picture,picture", names).message(), "names 'picture' twice");
}

TEST(QuotedValue, KeepsAMessageOnOneLine) {
    EXPECT_EQ(quotedValue("abc"), "'abc'");
    EXPECT_EQ(quotedValue("a\nb\tc\x01"), "'a\\nb\\tc\\x01'");
    EXPECT_EQ(quotedValue("Ünïcode"), "'Ünïcode'");
    const std::string longText(100, 'x');
    EXPECT_EQ(quotedValue(longText), "'" + std::string(64, 'x') + "...'");
    EXPECT_EQ(parseCount("1\n2").message().find('\n'), std::string::npos);
}

}  // namespace
}  // namespace cs
