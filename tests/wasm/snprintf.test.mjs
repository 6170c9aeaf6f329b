// The wasm module links its own snprintf (wasm/snprintf.cpp), not the C library's; its callers are
// nlohmann::json's two integer formats. Both must write what the native CLI (glibc's printf)
// writes: "<U+%.4X>" in a parse error's last-read token, "\u%04x" for a control character in the
// JSON text the module returns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = process.env.GPUSIZER_CLI ?? join(root, 'build/native/gpusizer');
const { default: createGpusizer } = await import(pathToFileURL(join(root, 'dist/gpusizer.mjs')).href);
const core = await createGpusizer({ wasmBinary: new Uint8Array(await readFile(join(root, 'dist/gpusizer.wasm'))) });

function cliError(text) {
  assert.ok(existsSync(cli), `${cli} is missing: build it first (scripts/build)`);
  const run = spawnSync(cli, ['estimate', '-'], { input: text, encoding: 'utf8' });
  assert.equal(run.status, 2, text);
  return run.stderr.split('\n')[0];
}

test('a raw control character: the parse error names it as <U+001F>, as the CLI does', () => {
  const text = '{"model": "a\x1fb"}';
  const { error } = JSON.parse(core.estimate(text));
  assert.match(error.message, /U\+001F \(US\).*last read: '"a<U\+001F>'$/);
  assert.equal(`error: ${error.field}: ${error.message}`, cliError(text));
});

test('control characters in a returned message are written \\u001f and \\u0001, as the CLI reads them', () => {
  const text = JSON.stringify({ model: 'a\x1fb\x01c' });
  const out = core.estimate(text);
  assert.ok(out.includes('a\\u001fb\\u0001c'), out);
  const { error } = JSON.parse(out);
  assert.ok(error.message.includes('a\x1fb\x01c'), error.message);
  assert.equal(`error: ${error.field}: ${error.message}`, cliError(text));
});
