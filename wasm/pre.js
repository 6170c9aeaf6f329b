// Linked into the module's factory ahead of Emscripten's minimal runtime (--pre-js, CMakeLists.txt,
// -sMINIMAL_RUNTIME=1: 29.0 -> 22.8 KB of glue, issue 14).
// Emscripten 3.1.6's minimal runtime with embind assigns the wasm's exports to `asm` without
// declaring it, which an ES module (strict code) refuses.
var asm;
// Callers pass the wasm's bytes as `wasmBinary` (web/facade.js, scripts/build-page.mjs,
// tests/wasm); the minimal runtime reads them from Module['wasm'].
Module['wasm'] = Module['wasmBinary'];
// The minimal runtime's WebAssembly.instantiate(...).then(...) has no rejection handler: a wasm it
// cannot instantiate (a glue and a wasm of different links, a browser without wasm exceptions)
// would leave the factory's promise pending for ever. This WebAssembly, local to the factory,
// rejects that promise instead, as the full runtime did.
var WebAssembly = {
  instantiate: function (bytes, imports) {
    return globalThis.WebAssembly.instantiate(bytes, imports).catch(function (error) {
      readyPromiseReject(error);
      return new Promise(function () {});
    });
  },
};
