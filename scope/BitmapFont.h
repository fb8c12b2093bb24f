// A built-in 5x7 bitmap font (printable ASCII 32..126) for scope labels, so the CPU
// renderer and headless export need no font files and every machine draws the same text.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace cs::font {

constexpr int kGlyphWidth = 5;    // pixels of ink per glyph, before scaling
constexpr int kGlyphHeight = 7;
constexpr int kAdvance = 6;       // glyph plus one column of spacing
constexpr int kLineHeight = 9;    // glyph plus two rows of spacing (text with '\n')

// Seven rows, top to bottom; bit 4 is the leftmost column, bit 0 the rightmost.
using Glyph = std::array<uint8_t, kGlyphHeight>;

// The glyph of `c`; characters outside 32..126 draw as '?'.
const Glyph& glyph(char c);

// Size in pixels of `text` drawn at `scale` (>= 1): the widest line times kAdvance
// less the trailing spacing column, and the line count times kLineHeight less the
// trailing spacing rows. Empty text: 0 x 0.
int textWidth(std::string_view text, int scale = 1);
int textHeight(std::string_view text, int scale = 1);

}  // namespace cs::font
