// The wasm reaches the page as text: base64 of its LZMA packing (lzma.js), inside a script. Why
// not a .wasm file: the hosted page's CSP (default-src 'none', hence connect-src 'none') forbids
// fetch(), and the offline file can carry only text. Packing before base64 keeps it near the
// packed size, where Emscripten's SINGLE_FILE base64 of the raw wasm would gzip to 1.5 times it.
// The hosted and embed pages use this; the offline file unpacks its app and wasm together in a
// loader of its own and replaces this module (scripts/build-page.mjs, OFFLINE_PACKING).
import { lzmaDecode } from './lzma.js';

export function wasmFromText(text) {
  const binary = atob(text);
  const packed = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) packed[i] = binary.charCodeAt(i);
  return lzmaDecode(packed);
}
