// The shipped module formats with its own snprintf (wasm/integer_snprintf.cpp), the native CLI with
// glibc's: nlohmann's two uses must read the same. A control character in an answer is escaped as
// \u00XX (lower case; \b \t \n \f \r as short escapes), and one in unparsable input is named
// <U+00XX> (upper case) in the parse error, as the CLI names it. The CLI is build/native/gpusizer
// (GPUSIZER_CLI points elsewhere).
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
const SHORT = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };

test('control characters in an answer are escaped as \\u00xx', () => {
  for (let c = 1; c < 0x20; c++) {
    const answer = core.estimate(JSON.stringify({ model: 'llama-3.1-8b', gpu: `t4${String.fromCharCode(c)}z` }));
    const escape = SHORT[c] ?? `\\u${c.toString(16).padStart(4, '0')}`;
    assert.ok(answer.includes(`t4${escape}z`), `${c}: ${answer.slice(0, 200)}`);
  }
});

test('a control character in unparsable input is named as the native CLI names it', () => {
  assert.ok(existsSync(cli), `${cli} is missing: build it first (scripts/build)`);
  for (let c = 1; c < 0x20; c++) {
    const input = `{"model":"llama${String.fromCharCode(c)}"}`;
    const { error } = JSON.parse(core.estimate(input));
    assert.ok(error.message.includes(`<U+${c.toString(16).toUpperCase().padStart(4, '0')}>`), error.message);
    const fromCli = spawnSync(cli, ['estimate', '-'], { input, encoding: 'utf8' });
    assert.equal(`error: ${error.field}: ${error.message}`, fromCli.stderr.split('\n')[0]);
  }
});
