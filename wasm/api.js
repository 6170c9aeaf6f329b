// Linked into the module's factory (--post-js): the methods the page and the tests call, each a
// string of JSON in and a string of JSON out, over the one C export of wasm/bindings.cpp. Strings
// cross as UTF-8 written and read by Emscripten's own stringToUTF8 and UTF8ToString, as embind's
// std::string did before (issue 14: no embind).
function gpusizerCall(command, input) {
  if (typeof input != 'string') throw new TypeError('gpusizer.' + command + ': the input must be a string of JSON');
  var commandSize = lengthBytesUTF8(command) + 1;
  var inputSize = lengthBytesUTF8(input);
  var buffer = _malloc(commandSize + inputSize + 1);
  stringToUTF8(command, buffer, commandSize);
  stringToUTF8(input, buffer + commandSize, inputSize + 1);
  try {
    return UTF8ToString(_gpusizer_call(buffer, buffer + commandSize, inputSize));
  } finally {
    _free(buffer);
  }
}
['estimate', 'rank', 'table', 'takes', 'fits', 'launch', 'config_keys'].forEach(function (command) {
  Module[command] = function (input) { return gpusizerCall(command, input); };
});
Module['catalog'] = function () { return gpusizerCall('catalog', ''); };
