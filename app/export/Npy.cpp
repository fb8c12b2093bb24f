#include "Npy.h"

#include <bit>
#include <string_view>

#include "app/cli/AtomicFile.h"

namespace cs {

Status writeNpyUint32(const std::string& path, const std::vector<uint32_t>& data, const std::vector<size_t>& shape) {
    size_t count = 1;
    std::string dims;
    for (size_t i = 0; i < shape.size(); ++i) {
        count *= shape[i];
        dims += std::to_string(shape[i]) + (shape.size() == 1 || i + 1 < shape.size() ? ", " : "");
    }
    if (count != data.size()) return Status::error(path + ": array size does not match its shape");
    std::string header = "{'descr': '<u4', 'fortran_order': False, 'shape': (" + dims + "), }";
    // Magic (6) + version (2) + header length (2) + header, padded with spaces to a
    // multiple of 64 bytes and ended by a newline, as the format asks.
    const size_t unpadded = 10 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    const uint16_t headerLen = uint16_t(header.size());
    const char preamble[10] = {'\x93', 'N', 'U', 'M', 'P', 'Y', '\x01', '\x00', char(headerLen & 0xff), char(headerLen >> 8)};
    static_assert(std::endian::native == std::endian::little, "npy output assumes a little-endian host");
    return writeFileAtomically(path, {std::string_view(preamble, sizeof preamble), header,
                                      std::string_view(reinterpret_cast<const char*>(data.data()),
                                                       data.size() * sizeof(uint32_t))});
}

}  // namespace cs
