// The CIE diagram drawn without caching anything (the benchmark's baseline, see the .cpp).
#pragma once
#include "scope/CieDiagram.h"

namespace cs::bench {

void renderCieDiagramReference(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out);

}  // namespace cs::bench
