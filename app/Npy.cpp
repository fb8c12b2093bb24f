#include "Npy.h"

#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>

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
    std::ofstream out(path, std::ios::binary);
    if (!out) return Status::error(path + ": cannot write (" + std::strerror(errno) + ")");
    const uint16_t headerLen = uint16_t(header.size());
    out.write("\x93NUMPY\x01\x00", 8);
    const char len[2] = {char(headerLen & 0xff), char(headerLen >> 8)};
    out.write(len, 2);
    out.write(header.data(), std::streamsize(header.size()));
    static_assert(std::endian::native == std::endian::little, "npy output assumes a little-endian host");
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size() * sizeof(uint32_t)));
    if (!out) return Status::error(path + ": write failed (" + std::strerror(errno) + ")");
    return {};
}

}  // namespace cs
