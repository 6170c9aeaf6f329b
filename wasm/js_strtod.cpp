// strtod for the wasm module, linked in place of the C library's (-Wl,--wrap=strtod,
// CMakeLists.txt): the number is read by the JS engine's Number() (wasm/js_strtod.js, which says
// what it reads and why it rounds as strtod does). The module's only caller is nlohmann::json's
// lexer (parse_json, json_reader.cpp), with a complete JSON number token; it reads neither endptr
// (an assertion, off in release builds) nor errno after strtod. Drops musl's long-double decimal
// scanner (issue 14: see scripts/check-size).
#include <cerrno>
#include <cmath>

extern "C" {
double gpusizer_js_strtod(const char* s, char** end);  // wasm/js_strtod.js

double __wrap_strtod(const char* s, char** end) {
  char* e;
  const double v = gpusizer_js_strtod(s, &e);
  if (end) *end = e;
  // ERANGE as musl sets it for a numeral that overflows to +-inf or underflows to 0 (a digit 1-9
  // before the exponent); not for an inexact subnormal result, where musl sets it too.
  if (std::isinf(v) && e > s && (e[-1] == '.' || (e[-1] >= '0' && e[-1] <= '9'))) errno = ERANGE;
  if (v == 0) {
    for (const char* p = s; p < e && (*p | 32) != 'e'; ++p) {
      if (*p >= '1' && *p <= '9') errno = ERANGE;
    }
  }
  return v;
}
}
