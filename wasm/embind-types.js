// A JS library linked after embind's (--js-library, CMakeLists.txt): embind registers every
// builtin C++ type at start-up (bind.cpp's __embind_register_native_and_builtin_types), and each
// registration pulls its JS converters into the glue. The module's functions (wasm/bindings.cpp)
// take and return std::string only, so the registrations of the other types do nothing here
// (issue 14: glue 22.8 -> 14.8 KB raw, gpusizer.html -1.2 KB gzipped). Binding a function with any
// other type (int, bool, double, emscripten::val, ...) needs its line removed from this file:
// otherwise calling that function throws embind's UnboundTypeError naming the type.
mergeInto(LibraryManager.library, {
  _embind_register_void: function () {},
  _embind_register_void__deps: [],
  _embind_register_bool: function () {},
  _embind_register_bool__deps: [],
  _embind_register_integer: function () {},
  _embind_register_integer__deps: [],
  _embind_register_bigint: function () {},
  _embind_register_bigint__deps: [],
  _embind_register_float: function () {},
  _embind_register_float__deps: [],
  _embind_register_std_wstring: function () {},
  _embind_register_std_wstring__deps: [],
  _embind_register_emval: function () {},
  _embind_register_emval__deps: [],
  _embind_register_memory_view: function () {},
  _embind_register_memory_view__deps: [],
});
