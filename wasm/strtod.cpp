// strtod for the wasm module only, in place of the C library's (issue 14, wasm size), linked as
// __wrap_strtod (-Wl,--wrap=strtod, CMakeLists.txt). Its one caller in the module is
// nlohmann::json's lexer, with a JSON number token: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
// musl's strtod works in long double (IEEE binary128, done in software on wasm): the module
// without it is 15 KB smaller raw and 6 KB smaller LZMA-packed (2026-12-01).
// The result is the double nearest the decimal value, ties to even (IEEE 754 round to nearest, as
// C11 7.22.1.3 asks of strtod and musl and glibc give), subnormals included; beyond the largest
// double, +-inf (nlohmann then reports "number overflow"). So every answer stays byte for byte the
// same. How: exact when the digits fit in 53 bits and the power of ten in a double (one rounding,
// Clinger 1990); else exact big-integer arithmetic: value = D * 10^E as a 64-bit head and a sticky
// bit, rounded once. Reads the JSON number grammar only (no whitespace, hex, inf or nan), and sets
// *end after what it read. tests/wasm/strtod.test.mjs checks it against JavaScript's Number().
#include <cstddef>
#include <cstdint>
#include <cmath>
#include <vector>

namespace {

using Limbs = std::vector<uint32_t>;  // a natural number, least significant 32 bits first

void mul_add(Limbs& a, uint32_t mul, uint32_t add) {
  uint64_t carry = add;
  for (uint32_t& limb : a) {
    carry += static_cast<uint64_t>(limb) * mul;
    limb = static_cast<uint32_t>(carry);
    carry >>= 32;
  }
  if (carry != 0) a.push_back(static_cast<uint32_t>(carry));
}

void mul_pow10(Limbs& a, int64_t k) {
  for (; k >= 9; k -= 9) mul_add(a, 1000000000, 0);
  for (; k > 0; --k) mul_add(a, 10, 0);
}

int bit_length(const Limbs& a) {
  int n = static_cast<int>(a.size());
  while (n > 0 && a[static_cast<size_t>(n - 1)] == 0) --n;
  if (n == 0) return 0;
  int bits = 32 * (n - 1);
  for (uint32_t top = a[static_cast<size_t>(n - 1)]; top != 0; top >>= 1) ++bits;
  return bits;
}

bool bit(const Limbs& a, int i) {
  if (i < 0) return false;
  const size_t limb = static_cast<size_t>(i / 32);
  return limb < a.size() && ((a[limb] >> (i % 32)) & 1u) != 0;
}

void shift_left(Limbs& a, int bits) {
  Limbs out(a.size() + static_cast<size_t>(bits / 32) + 1, 0);
  for (int i = bit_length(a) - 1; i >= 0; --i) {
    if (bit(a, i)) out[static_cast<size_t>((i + bits) / 32)] |= 1u << ((i + bits) % 32);
  }
  a = out;
}

bool less(const Limbs& a, const Limbs& b) {
  const size_t n = a.size() > b.size() ? a.size() : b.size();
  for (size_t i = n; i-- > 0;) {
    const uint32_t x = i < a.size() ? a[i] : 0;
    const uint32_t y = i < b.size() ? b[i] : 0;
    if (x != y) return x < y;
  }
  return false;
}

void subtract(Limbs& a, const Limbs& b) {  // a -= b, a >= b
  int64_t borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    int64_t d = static_cast<int64_t>(a[i]) - (i < b.size() ? b[i] : 0) - borrow;
    borrow = d < 0 ? 1 : 0;
    a[i] = static_cast<uint32_t>(d + (borrow << 32));
  }
}

bool is_zero(const Limbs& a) { return bit_length(a) == 0; }

// m * 2^e, m with its top bit at 63 and `sticky` for any nonzero bits below m, rounded once to the
// nearest double, ties to even; below 2^-1022 to the subnormals' coarser grid (2^-1074).
double round_to_double(uint64_t m, int64_t e, bool sticky) {
  int64_t drop = 11;  // 64 - 53 bits
  if (e + drop < -1074) drop = -1074 - e;
  if (drop > 64) return 0.0;  // below half the smallest subnormal
  const uint64_t kept = drop == 64 ? 0 : m >> drop;
  const uint64_t rest = drop == 64 ? m : m & ((uint64_t{1} << drop) - 1);
  const uint64_t half = uint64_t{1} << (drop - 1);
  const bool up = rest > half || (rest == half && (sticky || (kept & 1u) != 0));
  // Exact: kept + up <= 2^53, and the scaled value lies on the double grid (or overflows to inf).
  return std::scalbn(static_cast<double>(kept + (up ? 1 : 0)), static_cast<int>(e + drop));
}

double big_to_double(const char* digits, int count, int64_t exp10) {
  Limbs num{0};
  for (int i = 0; i < count; ++i) mul_add(num, 10, static_cast<uint32_t>(digits[i] - '0'));
  if (exp10 >= 0) {
    mul_pow10(num, exp10);
    const int a = bit_length(num);
    uint64_t m = 0;
    for (int i = 0; i < 64; ++i) m = (m << 1) | (bit(num, a - 1 - i) ? 1u : 0u);  // bits below 0 read as 0
    bool sticky = false;
    for (int i = 0; i < a - 64 && !sticky; ++i) sticky = bit(num, i);
    return round_to_double(m, a - 64, sticky);
  }
  Limbs den{1};
  mul_pow10(den, -exp10);
  // q = floor(num * 2^s / den) with 63 or 64 bits, by shift and subtract; value = q * 2^-s.
  const int s = 63 + bit_length(den) - bit_length(num);
  if (s >= 0) shift_left(num, s);
  else shift_left(den, -s);
  shift_left(den, 63);
  uint64_t q = 0;
  for (int i = 63; i >= 0; --i) {
    if (!less(num, den)) {
      subtract(num, den);
      q |= uint64_t{1} << i;
    }
    Limbs half_den(den.size(), 0);  // den >>= 1
    for (size_t k = 0; k < den.size(); ++k) {
      half_den[k] = (den[k] >> 1) | (k + 1 < den.size() ? den[k + 1] << 31 : 0);
    }
    den = half_den;
  }
  int64_t e = -s;
  if ((q >> 63) == 0) {  // 63 bits: one more place, exact (the remainder stays in sticky)
    q <<= 1;
    e -= 1;
  }
  return round_to_double(q, e, !is_zero(num));
}

}  // namespace

extern "C" double __wrap_strtod(const char* text, char** end) {
  const char* p = text;
  const bool negative = *p == '-';
  if (negative || *p == '+') ++p;
  // The significant digits (leading zeros dropped) and the power of ten of the last one kept.
  // Beyond 780 digits the rest only decides a tie: a halfway point between two doubles has at
  // most 767 significant digits, so a nonzero digit dropped is kept as a final 1.
  constexpr int kMaxDigits = 780;
  char digits[kMaxDigits + 1];
  int count = 0;
  int64_t exp10 = 0;
  bool any = false;
  bool dropped = false;
  auto take = [&](char c, bool fraction) {
    any = true;
    if (count == 0 && c == '0') {
      if (fraction) --exp10;
      return;
    }
    if (count < kMaxDigits) {
      digits[count++] = c;
      if (fraction) --exp10;
    } else {
      dropped = dropped || c != '0';
      if (!fraction) ++exp10;
    }
  };
  for (; *p >= '0' && *p <= '9'; ++p) take(*p, false);
  if (*p == '.' && p[1] >= '0' && p[1] <= '9') {
    for (++p; *p >= '0' && *p <= '9'; ++p) take(*p, true);
  }
  if (!any) {
    if (end != nullptr) *end = const_cast<char*>(text);
    return 0.0;
  }
  if ((*p == 'e' || *p == 'E')) {
    const char* q = p + 1;
    const bool minus = *q == '-';
    if (minus || *q == '+') ++q;
    if (*q >= '0' && *q <= '9') {
      int64_t n = 0;
      for (; *q >= '0' && *q <= '9'; ++q) n = n < 100000000 ? n * 10 + (*q - '0') : n;  // saturates
      exp10 += minus ? -n : n;
      p = q;
    }
  }
  if (end != nullptr) *end = const_cast<char*>(p);
  if (dropped) {
    digits[count++] = '1';
    --exp10;
  }
  double value = 0.0;
  if (count == 0) {
    value = 0.0;
  } else if (count + exp10 > 310) {  // >= 10^310
    value = HUGE_VAL;
  } else if (count + exp10 < -330) {  // < 10^-330, below half the smallest subnormal
    value = 0.0;
  } else {
    uint64_t d = 0;
    if (count <= 19) {
      for (int i = 0; i < count; ++i) d = d * 10 + static_cast<uint64_t>(digits[i] - '0');
    }
    // Clinger's fast path: d and 10^|exp10| exact doubles, one correctly rounded operation.
    static const double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (count <= 19 && d <= (uint64_t{1} << 53) && exp10 >= -22 && exp10 <= 22) {
      value = exp10 >= 0 ? static_cast<double>(d) * kPow10[exp10] : static_cast<double>(d) / kPow10[-exp10];
    } else {
      value = big_to_double(digits, count, exp10);
    }
  }
  return negative ? -value : value;
}
