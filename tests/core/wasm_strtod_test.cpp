// wasm/strtod.cpp, the strtod the wasm module links in place of the C library's (CMakeLists.txt,
// --wrap=strtod), against the C library's own strtod of the machine running this suite: glibc
// natively, musl under the wasm build of the suite (both round correctly, ties to even). Same
// double, bit for bit, and the same end of what was read.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

extern "C" double __wrap_strtod(const char* text, char** end);

namespace {

void same_as_libc(const std::string& text) {
  char* libc_end = nullptr;
  char* own_end = nullptr;
  const double libc = std::strtod(text.c_str(), &libc_end);
  const double own = __wrap_strtod(text.c_str(), &own_end);
  uint64_t a = 0;
  uint64_t b = 0;
  std::memcpy(&a, &libc, 8);
  std::memcpy(&b, &own, 8);
  INFO(text);
  CHECK(a == b);
  CHECK(own_end - text.c_str() == libc_end - text.c_str());
}

}  // namespace

TEST_CASE("The wasm module's strtod reads the edges as the C library does", "[wasm][strtod]") {
  for (const char* text : {"0", "-0.0", "1", "0.1", "1e22", "1e23", "9007199254740993", "9007199254740992.5",
                           "4.9406564584124654e-324", "2.4703282292062328e-324", "2.4703282292062327e-324",
                           "1e-400", "2.2250738585072011e-308", "2.2250738585072014e-308", "1.7976931348623157e308",
                           "1.7976931348623158e308", "1.7976931348623159e308", "1e400", "-1e400", "123456789012345678901234567890",
                           "0.1e-99999999999", "1e99999999999", "-", "1e", "1e+", "2.5E-3", "7,5"}) {
    same_as_libc(text);
  }
  same_as_libc("0." + std::string(900, '3'));
  same_as_libc("1" + std::string(400, '0'));
  same_as_libc(std::string(800, '9') + "e-500");
}

TEST_CASE("The wasm module's strtod rounds midpoints between doubles, and numbers near them, as the C library does",
          "[wasm][strtod]") {
  std::mt19937_64 rng(20261201);
  char buffer[1200];
  for (int i = 0; i < 3000; ++i) {
    uint64_t bits = rng() & 0x7fffffffffffffffULL;
    double x = 0;
    std::memcpy(&x, &bits, 8);
    const double y = std::nextafter(x, INFINITY);
    if (!std::isfinite(y)) continue;
    // Printed to 17 and to 25 digits: near x, not on a midpoint.
    std::snprintf(buffer, sizeof buffer, "%.*e", 16 + static_cast<int>(rng() % 10), x);
    same_as_libc(buffer);
    // The midpoint, exact in long double (54 bits), printed in full; then its last digit raised.
    std::snprintf(buffer, sizeof buffer, "%.780Le", (static_cast<long double>(x) + y) / 2);
    std::string mid = buffer;
    same_as_libc(mid);
    const size_t e = mid.find('e');
    size_t last = e - 1;
    while (mid[last] == '0') --last;
    if (mid[last] != '.' && mid[last] != '9') {
      ++mid[last];
      same_as_libc(mid);
    }
  }
}

TEST_CASE("The wasm module's strtod reads random JSON numbers as the C library does", "[wasm][strtod]") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    std::string text = (rng() & 1) ? "-" : "";
    text += static_cast<char>('0' + rng() % 10);
    const int digits = static_cast<int>(rng() % (i % 50 == 0 ? 900 : 25));
    if (rng() & 1) text += '.';
    for (int k = 0; k < digits; ++k) text += static_cast<char>('0' + rng() % 10);
    if (text.back() == '.') text += '5';
    if (rng() % 3 != 0) text += "e" + std::to_string(static_cast<int>(rng() % 700) - 360);
    same_as_libc(text);
  }
}
