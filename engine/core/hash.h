// Content hashes: evidence attachments and records are named by them.
#pragma once

#include <string>

namespace wb {

// SHA-256 of bytes, as 64 lower-case hex digits (OpenSSL's libcrypto).
std::string sha256Hex(const std::string &bytes);

} // namespace wb
