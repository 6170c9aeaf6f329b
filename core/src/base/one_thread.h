// Per-thread caches of the core (the last answer of a builder): thread_local where the core may run
// on several threads (the native library), a plain function-local static in the wasm module, which
// runs on one (no -pthread): no __cxa_thread_atexit registration and no TLS access for each
// (issue 14, wasm size).
#pragma once

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define GPUSIZER_THREAD_LOCAL static
#else
#define GPUSIZER_THREAD_LOCAL thread_local
#endif
