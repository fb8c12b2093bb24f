// FFmpeg's error codes in words a user understands, for every sentence that quotes one.
#pragma once
#include <string>

namespace cs::ff {

// FFmpeg's own text where it is plain ("No such file or directory", "Connection refused",
// "Server returned 404 Not Found"); words that say what happened where it is not ("Invalid
// data found when processing input", a bare "Input/output error", "Immediate exit requested").
std::string errorText(int averror);

}  // namespace cs::ff
