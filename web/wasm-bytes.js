// The wasm reaches the page as text: base64 of its gzip compression, inside a script. Why not a
// .wasm file: the hosted page's CSP (default-src 'none', hence connect-src 'none') forbids fetch(),
// and the offline file can carry only text. Compressed before base64, because base64 of the raw
// wasm compresses badly (the offline file would be over its size guard, scripts/check-size); the
// browser's own gzip decoder (DecompressionStream) unpacks it. The hosted and embed pages use this;
// the offline file unpacks its app and wasm together in its loader (scripts/build-page.mjs).

// The bytes that `text` (base64 of gzip) packs.
export async function unpack(text) {
  const binary = atob(text);
  const packed = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) packed[i] = binary.charCodeAt(i);
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export const wasmFromText = unpack;
