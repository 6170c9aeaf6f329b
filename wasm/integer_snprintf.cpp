// snprintf for the wasm module, linked in place of the C library's full one (-Wl,--wrap=snprintf,
// CMakeLists.txt): the C library's integer-only variant, vsniprintf (Emscripten's musl, the
// printf without fmt_fp that Emscripten also uses for iprintf). The module's only snprintf callers
// are nlohmann::json's two integer formats ("\u%04x" for control characters in dump(), "<U+%.4X>"
// in parse errors); the full printf carried musl's long-double float formatting (issue 14: LZMA-
// packed wasm 136,868 -> 135,337 B). A floating-point conversion here would call a null fmt_fp
// and trap loudly (the wasm tests would fail), never print a wrong number.
#include <cstdarg>
#include <cstddef>

extern "C" {
int vsniprintf(char* s, std::size_t n, const char* fmt, va_list ap);

int __wrap_snprintf(char* s, std::size_t n, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int r = vsniprintf(s, n, fmt, ap);
  va_end(ap);
  return r;
}
}
