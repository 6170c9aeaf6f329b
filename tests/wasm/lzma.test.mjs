// web/lzma.js against xz-utils, the packer scripts/build-page.mjs uses: every properties byte
// the page could meet (lc, lp, pb), on text, on noise and on long repeats; and a truncated stream
// is refused rather than returned short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { lzmaDecode } from '../../web/lzma.js';

function pack(bytes, options) {
  const xz = spawnSync('xz', ['--format=lzma', `--lzma1=${options}`, '--stdout'], { input: bytes, maxBuffer: 1 << 30 });
  assert.equal(xz.status, 0, String(xz.stderr));
  xz.stdout.writeBigUInt64LE(BigInt(bytes.length), 5);  // as build-page does
  return new Uint8Array(xz.stdout);
}

const text = await readFile(new URL('../../web/app.css', import.meta.url));
const samples = {
  text,
  noise: randomBytes(50_000),
  repeats: Buffer.concat([Buffer.alloc(70_000, 7), text, text, randomBytes(300), text]),
  'one byte': Buffer.from([42]),
};

for (const options of ['preset=9e', 'preset=6,lc=0,lp=2,pb=0', 'preset=1,lc=4,lp=0,pb=4']) {
  test(`decodes what xz packs with ${options}`, () => {
    for (const [name, bytes] of Object.entries(samples)) {
      assert.deepEqual(lzmaDecode(pack(bytes, options)), new Uint8Array(bytes), name);
    }
  });
}

test('a truncated stream is an error', () => {
  const packed = pack(samples.repeats, 'preset=6');
  assert.throws(() => lzmaDecode(packed.subarray(0, packed.length >> 1)), /lzma/);
});
