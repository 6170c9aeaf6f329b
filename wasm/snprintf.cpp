// snprintf for the wasm module only, in place of the C library's (issue 14, wasm size). Its only
// callers in the module are nlohmann::json's: the serializer writes a control character as
// "\u%04x", the lexer names one in a parse error as "<U+%.4X>". The C library's snprintf brings
// the whole printf engine with its long-double float formatting: linked without it the wasm is
// 7.8 KB smaller raw and 3.5 KB smaller LZMA-packed (135,471 -> 131,956 B, 2026-12-01).
// What it writes: text, "%%", and unsigned integers as %u, %x and %X with the '0' flag, a width,
// a precision and the hh/h length modifiers (C11 7.21.6.1). Any other conversion (a sign, %d, %s,
// %g, ...) stops the output there and returns -1, the C standard's "an encoding error occurred".
// tests/wasm/snprintf.test.mjs checks both of nlohmann's formats against the native CLI (glibc).
#include <cstdarg>
#include <cstddef>

namespace {

struct Sink {
  char* s;
  size_t n;
  size_t count = 0;  // what a large enough buffer would hold, as snprintf returns
  void put(char c) {
    if (count + 1 < n) s[count] = c;
    ++count;
  }
};

bool digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

extern "C" int snprintf(char* s, size_t n, const char* format, ...) {
  Sink out{s, n};
  bool failed = false;
  va_list args;
  va_start(args, format);
  for (const char* f = format; *f != '\0' && !failed;) {
    if (*f != '%') {
      out.put(*f++);
      continue;
    }
    ++f;
    if (*f == '%') {
      out.put(*f++);
      continue;
    }
    bool zero = false;
    for (; *f == '0'; ++f) zero = true;
    int width = 0;
    for (; digit(*f); ++f) width = width * 10 + (*f - '0');
    int precision = -1;  // none given
    if (*f == '.') {
      precision = 0;
      for (++f; digit(*f); ++f) precision = precision * 10 + (*f - '0');
    }
    int shorter = 0;  // h: unsigned short, hh: unsigned char (passed promoted to int)
    for (; *f == 'h' && shorter < 2; ++f) ++shorter;
    const char conversion = *f;
    if (conversion != 'u' && conversion != 'x' && conversion != 'X') {
      failed = true;
      break;
    }
    ++f;
    unsigned value = va_arg(args, unsigned);
    if (shorter == 1) value = static_cast<unsigned short>(value);
    if (shorter == 2) value = static_cast<unsigned char>(value);
    const unsigned base = conversion == 'u' ? 10 : 16;
    const char* symbols = conversion == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    char digits[16];
    int count = 0;
    for (unsigned v = value; v != 0; v /= base) digits[count++] = symbols[v % base];
    // At least `precision` digits (one when none is given; none for a zero at precision 0), then
    // the '0' flag pads to the width when no precision is given, spaces otherwise (7.21.6.1 p6).
    const int least = precision < 0 ? 1 : precision;
    int zeros = count < least ? least - count : 0;
    if (zero && precision < 0 && count + zeros < width) zeros = width - count;
    for (int i = count + zeros; i < width; ++i) out.put(' ');
    for (int i = 0; i < zeros; ++i) out.put('0');
    while (count > 0) out.put(digits[--count]);
  }
  va_end(args);
  if (n > 0) s[out.count < n ? out.count : n - 1] = '\0';
  return failed ? -1 : static_cast<int>(out.count);
}
