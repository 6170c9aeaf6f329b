// snprintf for the wasm module, linked in place of the C library's (-Wl,--wrap=snprintf,
// CMakeLists.txt). The module's only snprintf callers are nlohmann::json's two hexadecimal integer
// formats: "\u%04x" (twice for a surrogate pair) for control characters in dump(), and "<U+%.4X>"
// for a control character in a parse error. musl's printf, even its integer-only variant
// (vsniprintf, which this file called before), carried the whole format machinery (printf_core,
// pop_arg, wctomb: issue 14, see scripts/check-size). This one writes literal text, %% and the
// unsigned hexadecimal conversions %x and %X with an optional 0 flag, width and precision, as C's
// snprintf does (at most n - 1 characters and a NUL; returns the length of the whole text). Any
// other conversion, flag or length modifier traps loudly (the wasm tests would fail) instead of
// printing something wrong.
#include <cstdarg>
#include <cstddef>

extern "C" int __wrap_snprintf(char* s, std::size_t n, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::size_t len = 0;
  const auto put = [&](char c) {
    if (len + 1 < n) s[len] = c;
    ++len;
  };
  for (const char* p = fmt; *p; ++p) {
    if (*p != '%' || *++p == '%') {
      put(*p);
      continue;
    }
    const bool zero = *p == '0';
    if (zero) ++p;
    int width = 0, precision = -1;
    for (; *p >= '0' && *p <= '9'; ++p) width = width * 10 + (*p - '0');
    if (*p == '.') {
      precision = 0;
      for (++p; *p >= '0' && *p <= '9'; ++p) precision = precision * 10 + (*p - '0');
    }
    if (*p != 'x' && *p != 'X') __builtin_trap();
    const char* digits = *p == 'x' ? "0123456789abcdef" : "0123456789ABCDEF";
    unsigned v = va_arg(ap, unsigned);
    char buf[8];  // the digits, last first: 32 bits are 8 hexadecimal digits
    int count = 0;
    for (; v != 0; v >>= 4) buf[count++] = digits[v & 15];
    // The digits at least `precision` of them (a zero with precision 0 writes none; 1 by
    // default), zero-padded to `width` with the 0 flag and no precision, else space-padded.
    int least = precision >= 0 ? precision : (zero ? width : 1);
    if (least < count) least = count;
    for (int i = least; i < width; ++i) put(' ');
    for (int i = least; i > count; --i) put('0');
    while (count > 0) put(buf[--count]);
  }
  va_end(ap);
  if (n > 0) s[len < n ? len : n - 1] = '\0';
  return static_cast<int>(len);
}
