// The CUDA scope pass's vectorised readers (cuda/scope/PixelGroups.h), run on the host: every
// group of every row of random frames, in every pixel format, must unpack to exactly what
// core's PixelAccess reads pixel by pixel. Needs no GPU.
#include <gtest/gtest.h>

#include <random>

#include "CudaTestUtil.h"
#include "core/PixelAccess.h"
#include "cuda/scope/PixelGroups.h"

namespace cs {
namespace {

template <class R>
void checkReader(const R& reader, const Frame& frame, const char* name) {
    const FrameView v = frame.view();
    const PixelSource src = makePixelSource(v);
    const int mid = 1 << (v.bitDepth() - 1);
    int mismatches = 0;
    for (int y = 0; y < v.height; ++y)
        for (int x0 = 0; x0 < v.width; x0 += R::P) {
            typename R::Group g{};
            reader.load(x0, y, g);
            for (int i = 0; i < R::P && x0 + i < v.width; ++i) {
                const int x = x0 + i;
                if constexpr (R::kRgb) {
                    const Rgb want = readRgb(src, x, y);
                    if (g.r[i] != want.r || g.g[i] != want.g || g.b[i] != want.b) ++mismatches;
                } else {
                    const YuvSample want = readYuv(src, x, y, mid);
                    const int k = i >> R::LOG2W;
                    if (g.y[i] != want.y || g.cb[k] != want.cb || g.cr[k] != want.cr) {
                        if (!mismatches)
                            ADD_FAILURE() << name << " at x=" << x << " y=" << y << ": got " << g.y[i] << "," << g.cb[k] << ","
                                          << g.cr[k] << " want " << want.y << "," << want.cb << "," << want.cr;
                        ++mismatches;
                    }
                }
            }
        }
    EXPECT_EQ(mismatches, 0) << name;
}

TEST(PixelGroups, EveryFormatMatchesPixelAccess) {
    std::mt19937 rng(7);
    for (PixelFormat f : test::allFormats()) {
        for (auto [w, h] : {std::pair{1, 1}, std::pair{2, 2}, std::pair{13, 5}, std::pair{64, 3}, std::pair{67, 9}}) {
            Frame frame(f, w, h);
            test::fillRandom(frame, rng);
            const FrameView v = frame.view();
            cuda::PlaneSet planes{};
            for (int i = 0; i < 3; ++i) { planes.data[i] = v.data[size_t(i)]; planes.pitch[i] = size_t(v.pitch[size_t(i)]); }
            const std::string name = std::string(formatInfo(f).name) + " " + std::to_string(w) + "x" + std::to_string(h);
            ASSERT_EQ(cuda::groupPixels(f), cuda::visitReader(planes, f, [](const auto& r) { return std::decay_t<decltype(r)>::P; }))
                << name;
            cuda::visitReader(planes, f, [&](const auto& reader) { checkReader(reader, frame, name.c_str()); });
        }
    }
}

// Bits above the depth of little-endian 10-bit formats are ignored (never used as an index).
TEST(PixelGroups, TenBitHighBitsAreMasked) {
    Frame frame(PixelFormat::Yuv420p10, 4, 2);
    for (int p = 0; p < 3; ++p) {
        uint8_t* d = frame.plane(p);
        d[0] = 0xff; d[1] = 0xff;   // 0xffff: a corrupt sample
    }
    const FrameView v = frame.view();
    cuda::PlaneSet planes{};
    for (int i = 0; i < 3; ++i) { planes.data[i] = v.data[size_t(i)]; planes.pitch[i] = size_t(v.pitch[size_t(i)]); }
    cuda::PlanarReader<2, 1> reader{planes, 1, 1023, 512};
    cuda::PlanarReader<2, 1>::Group g{};
    reader.load(0, 0, g);
    EXPECT_EQ(g.y[0], 1023);
    EXPECT_EQ(g.cb[0], 1023);
    EXPECT_EQ(g.cr[0], 1023);
}

}  // namespace
}  // namespace cs
