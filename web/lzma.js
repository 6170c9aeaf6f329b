// An LZMA decoder for the ".lzma" (LZMA_Alone) format that `xz --format=lzma` writes, after the
// reference decoder of the LZMA SDK (LzmaSpec.cpp, Igor Pavlov, public domain). Why LZMA: it packs
// the core's wasm about a fifth smaller than gzip, and the offline file's app with it
// (scripts/build-page.mjs), which keeps the offline file inside its size guard; browsers decode only
// gzip/deflate natively. The header's
// size field must hold the real size (scripts/build-page.mjs writes it); decoding stops there.

const STATES = 12;
const POS_STATES_MAX = 16;
const END_POS_MODEL = 14;  // distance slots below this use probability trees, above: direct bits
const FULL_DISTANCES = 128;
const ALIGN_BITS = 4;

const probs = (n) => new Uint16Array(n).fill(1024);  // 0.5 in 11-bit fixed point

export function lzmaDecode(input) {
  let props = input[0];
  if (props >= 9 * 5 * 5) throw new Error('lzma: bad properties byte');
  const lc = props % 9;
  props = (props / 9) | 0;
  const lp = props % 5;
  const pb = (props / 5) | 0;
  let size = 0;
  for (let i = 12; i >= 5; i--) size = size * 256 + input[i];
  if (size >= 2 ** 53) throw new Error('lzma: the header must give the size');
  const out = new Uint8Array(size);

  // Range decoder. range and code are unsigned 32-bit values; they live in a Uint32Array because
  // as closure variables every update past 2^30 would allocate a boxed number (V8 Smis are 31-bit).
  const rc = new Uint32Array(2);  // [range, code]
  rc[0] = 0xffffffff;
  rc[1] = (input[14] << 24) | (input[15] << 16) | (input[16] << 8) | input[17];  // after the 13-byte header and a zero byte
  let pos = 18;
  const normalize = () => {
    if (rc[0] < 0x1000000) {
      if (pos >= input.length) throw new Error('lzma: data ends early');
      rc[0] <<= 8;
      rc[1] = (rc[1] << 8) | input[pos++];
    }
  };
  const bit = (p, i) => {
    const prob = p[i];
    const bound = (rc[0] >>> 11) * prob;
    let b = 0;
    if (rc[1] < bound) {
      rc[0] = bound;
      p[i] = prob + ((2048 - prob) >>> 5);
    } else {
      rc[0] -= bound;
      rc[1] -= bound;
      p[i] = prob - (prob >>> 5);
      b = 1;
    }
    normalize();
    return b;
  };
  const direct = (count) => {
    let res = 0;
    for (let i = 0; i < count; i++) {
      rc[0] >>>= 1;
      let b = 0;
      if (rc[1] >= rc[0]) { rc[1] -= rc[0]; b = 1; }
      res = res * 2 + b;
      normalize();
    }
    return res;
  };
  const tree = (p, base, bits) => {
    let m = 1;
    for (let i = 0; i < bits; i++) m = (m << 1) + bit(p, base + m);
    return m - (1 << bits);
  };
  const reverseTree = (p, base, bits) => {
    let m = 1;
    let symbol = 0;
    for (let i = 0; i < bits; i++) {
      const b = bit(p, base + m);
      m = (m << 1) + b;
      symbol |= b << i;
    }
    return symbol;
  };

  // Length coder: choice, choice2, low[16][8], mid[16][8], high[256].
  const LOW = 2;
  const MID = LOW + POS_STATES_MAX * 8;
  const HIGH = MID + POS_STATES_MAX * 8;
  const lenCoder = () => probs(HIGH + 256);
  const length = (p, posState) => {
    if (bit(p, 0) === 0) return tree(p, LOW + posState * 8, 3);
    if (bit(p, 1) === 0) return 8 + tree(p, MID + posState * 8, 3);
    return 16 + tree(p, HIGH, 8);
  };

  const literal = probs(0x300 << (lc + lp));
  const isMatch = probs(STATES * POS_STATES_MAX);
  const isRep = probs(STATES);
  const isRepG0 = probs(STATES);
  const isRepG1 = probs(STATES);
  const isRepG2 = probs(STATES);
  const isRep0Long = probs(STATES * POS_STATES_MAX);
  const posSlot = probs(4 << 6);
  const posCoders = probs(1 + FULL_DISTANCES - END_POS_MODEL);
  const align = probs(1 << ALIGN_BITS);
  const matchLen = lenCoder();
  const repLen = lenCoder();

  const distance = (len) => {
    const slot = tree(posSlot, Math.min(len, 3) << 6, 6);
    if (slot < 4) return slot;
    const bits = (slot >>> 1) - 1;
    const dist = (2 | (slot & 1)) * 2 ** bits;
    if (slot < END_POS_MODEL) return dist + reverseTree(posCoders, dist - slot, bits);
    return dist + direct(bits - ALIGN_BITS) * 2 ** ALIGN_BITS + reverseTree(align, 0, ALIGN_BITS);
  };

  const pbMask = (1 << pb) - 1;
  const lpMask = (1 << lp) - 1;
  let state = 0;
  let rep0 = 0;
  let rep1 = 0;
  let rep2 = 0;
  let rep3 = 0;
  let n = 0;  // bytes written
  while (n < size) {
    const posState = n & pbMask;
    if (bit(isMatch, (state << 4) + posState) === 0) {
      const prev = n > 0 ? out[n - 1] : 0;
      const base = 0x300 * (((n & lpMask) << lc) + (prev >>> (8 - lc)));
      let symbol = 1;
      if (state >= 7) {  // after a match: the byte at rep0 guides the first bits
        let matchByte = out[n - rep0 - 1];
        do {
          const matchBit = (matchByte >>> 7) & 1;
          matchByte <<= 1;
          const b = bit(literal, base + ((1 + matchBit) << 8) + symbol);
          symbol = (symbol << 1) | b;
          if (matchBit !== b) break;
        } while (symbol < 0x100);
      }
      while (symbol < 0x100) symbol = (symbol << 1) | bit(literal, base + symbol);
      out[n++] = symbol - 0x100;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let len;
    if (bit(isRep, state) !== 0) {
      if (n === 0) throw new Error('lzma: corrupt data');
      if (bit(isRepG0, state) === 0) {
        if (bit(isRep0Long, (state << 4) + posState) === 0) {  // a single byte at rep0
          state = state < 7 ? 9 : 11;
          out[n] = out[n - rep0 - 1];
          n++;
          continue;
        }
      } else {
        let dist;
        if (bit(isRepG1, state) === 0) {
          dist = rep1;
        } else {
          if (bit(isRepG2, state) === 0) {
            dist = rep2;
          } else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      len = length(repLen, posState);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = length(matchLen, posState);
      state = state < 7 ? 7 : 10;
      rep0 = distance(len);
      if (rep0 === 0xffffffff) break;  // end marker
      if (rep0 >= n) throw new Error('lzma: corrupt data');
    }
    for (let k = len + 2; k > 0 && n < size; k--, n++) out[n] = out[n - rep0 - 1];
  }
  if (n !== size) throw new Error('lzma: end marker before the end');
  return out;
}
