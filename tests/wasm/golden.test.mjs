// The shipped module (dist/gpusizer.mjs with dist/gpusizer.wasm) gives every golden answer of
// tests/golden/expected.json, written from the native CLI by scripts/golden --update: the
// native/wasm parity check over 200+ scenarios, numbers equal to 1e-12 relative.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { differences, expectedPath, readJson, scenariosPath } from '../golden/golden.mjs';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../../dist');
const { default: createGpusizer } = await import(pathToFileURL(join(dist, 'gpusizer.mjs')).href);
const core = await createGpusizer({ wasmBinary: new Uint8Array(await readFile(join(dist, 'gpusizer.wasm'))) });

test('expected.json answers the scenarios of scenarios.json (else: scripts/golden --update)', () => {
  const scenarios = readJson(scenariosPath);
  const expected = readJson(expectedPath);
  assert.ok(scenarios.length >= 200, `${scenarios.length} golden scenarios`);
  assert.deepEqual(expected.map(({ command, input }) => ({ command, input })), scenarios);
});

test('the wasm module gives every golden answer', () => {
  const problems = [];
  readJson(expectedPath).forEach(({ command, input, output }, i) => {
    const answer = JSON.parse(core[command](JSON.stringify(input)));
    // The CLI's stderr (what expected.json records) has the field and the message; the module's
    // error also carries the message's code and values (docs/errors.md), checked elsewhere.
    if (answer.error) answer.error = { field: answer.error.field, message: answer.error.message };
    for (const d of differences(answer, output)) problems.push(`[${i}] ${command} ${JSON.stringify(input).slice(0, 120)}: ${d}`);
  });
  assert.deepEqual(problems.slice(0, 20), []);
});
