// strtod for the wasm module by the JS engine's Number() (--js-library, CMakeLists.txt; the C side
// is wasm/js_strtod.cpp): musl's strtod, the module's only floating-point parser, carried its whole
// long-double scanner (floatscan, the soft-float arithmetic of long double, scalbnl) for the
// decimal numbers that nlohmann's lexer hands over (issue 14, 2026-12-01).
// Number() of a decimal literal is the double nearest to its exact value, ties to even, like
// strtod: ECMA-262 (StringToNumber, "RoundMVResult") lets an engine round literals of more than 20
// significant digits from their first 20 only, but V8, SpiderMonkey and JavaScriptCore round them
// all exactly (double-conversion / dtoa), as tests/wasm/strtod.test.mjs checks in node.
// Reads the text at `s` as C's strtod does: leading white space, a sign, then the longest decimal
// numeral (digits with at most one point, an optional exponent) or inf, infinity or nan (any
// case); stores the end of what it read at `end` (s itself when nothing converts, and returns 0).
// Not handled: hexadecimal numerals (0x1p3), which abort loudly instead of reading "0", and
// nan(chars), read as "nan". Returns the value; js_strtod.cpp sets errno.
mergeInto(LibraryManager.library, {
  gpusizer_js_strtod: function (s, end) {
    var text = '';
    for (var p = s, c; (c = HEAPU8[p]) > 8 && c < 127; p++) text += String.fromCharCode(c);
    var m = /^[\t-\r ]*([+-]?)(?:(0x\.?[\da-f])|((?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)|(inf(?:inity)?)|nan)/i.exec(text);
    if (m && m[2]) abort('strtod: hexadecimal numeral');
    if (end) HEAPU32[end >> 2] = s + (m ? m[0].length : 0);
    return !m ? 0 : m[3] ? Number(m[1] + m[3]) : m[4] ? (m[1] == '-' ? -Infinity : Infinity) : NaN;
  },
});
