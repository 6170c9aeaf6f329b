// Builds the page into dist/ from web/ and the wasm build (build/wasm/gpusizer.mjs + .wasm):
//   hosted   index.html, embed.html, app.js, embed.js, app.css, gpusizer.mjs, gpusizer-wasm.js
//            (the wasm packed as text, see web/wasm-bytes.js), and gpusizer.wasm for other users
//            of the module (node, other pages);
//   offline  gpusizer.html: one file with the CSS, the JS, the glue and the wasm inlined, for
//            file:// (where module scripts from files are blocked) and no network at all.
// esbuild bundles and minifies (a build tool only: nothing of it ships).
import * as esbuild from 'esbuild';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'web');
const dist = join(root, 'dist');
const wasmBuild = join(root, 'build/wasm');

// Browsers with top-level await in modules and CSS :has() (2022-2023 onward).
const target = ['chrome105', 'firefox121', 'safari15.4'];
// The two core files are outputs of this script, not sources: beside the bundle when hosted,
// inlined when offline.
const CORE_FILES = /^\.\/gpusizer(\.mjs|-wasm\.js)$/;

async function main() {
  const [glue, wasm] = await Promise.all([
    readFile(join(wasmBuild, 'gpusizer.mjs'), 'utf8'),
    readFile(join(wasmBuild, 'gpusizer.wasm')),
  ]).catch(() => {
    throw new Error('build/wasm/gpusizer.mjs or .wasm is missing: run the wasm build first (scripts/build)');
  });
  const wasmModule = `export default "${lzmaPack(wasm).toString('base64')}";\n`;

  await rm(dist, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });
  await Promise.all([
    writeFile(join(dist, 'gpusizer.mjs'), glue),
    writeFile(join(dist, 'gpusizer-wasm.js'), wasmModule),
    writeFile(join(dist, 'gpusizer.wasm'), wasm),
    copyFile(join(web, 'index.html'), join(dist, 'index.html')),
    copyFile(join(web, 'embed.html'), join(dist, 'embed.html')),
  ]);

  await checkPair(wasm);
  const common = { bundle: true, format: 'esm', minify: true, target, legalComments: 'none', logLevel: 'warning' };
  await esbuild.build({
    ...common,
    entryPoints: { app: join(web, 'main.js'), embed: join(web, 'embed.js') },
    outdir: dist,
    plugins: [{ name: 'core-beside', setup: (b) => b.onResolve({ filter: CORE_FILES }, (a) => ({ path: a.path, external: true })) }],
  });
  await esbuild.build({ ...common, entryPoints: [join(web, 'app.css')], outfile: join(dist, 'app.css') });

  const offline = await esbuild.build({
    ...common,
    entryPoints: [join(web, 'main.js')],
    write: false,
    plugins: [{
      name: 'core-inline',
      setup(b) {
        b.onResolve({ filter: CORE_FILES }, (a) => ({ path: a.path, namespace: 'core' }));
        b.onLoad({ filter: /.*/, namespace: 'core' }, (a) => ({
          contents: a.path === './gpusizer.mjs' ? glue : wasmModule, loader: 'js' }));
      },
    }],
  });
  const css = await readFile(join(dist, 'app.css'), 'utf8');
  await writeFile(join(dist, 'gpusizer.html'), inline(await readFile(join(web, 'index.html'), 'utf8'),
    css, offline.outputFiles[0].text));
}

// The glue and the wasm must come from the same link (their import names are minified): a wasm
// build running while this script reads them can tear the pair, so instantiate it once here.
async function checkPair(wasm) {
  const { default: create } = await import(pathToFileURL(join(dist, 'gpusizer.mjs')).href);
  const core = await create({ wasmBinary: wasm }).catch((error) => {
    throw new Error(`build/wasm/gpusizer.mjs and .wasm do not match (a wasm build still running?): ${error}`);
  });
  JSON.parse(core.catalog());
}

// The wasm packed by xz-utils in the .lzma format that web/lzma.js decodes, with the real size
// in the header (xz writes "unknown" when it reads a pipe) so the decoder knows where to stop.
function lzmaPack(bytes) {
  const xz = spawnSync('xz', ['--format=lzma', '-9e', '--stdout'], { input: bytes, maxBuffer: 1 << 30 });
  if (xz.status !== 0) throw new Error(`xz failed (Debian package xz-utils): ${xz.error ?? xz.stderr}`);
  xz.stdout.writeBigUInt64LE(BigInt(bytes.length), 5);
  return xz.stdout;
}

// The hosted page with its stylesheet and script inlined, its preloads dropped, and its CSP
// meta tag replaced by one that allows no request at all (so "works offline" is enforced by the
// browser, not just hoped) and only the inlined script and style, pinned by their SHA-256.
function inline(html, css, js) {
  // "</script" inside a string would end the inline script; "<\/script" is the same string.
  const script = js.replace(/<\/(script)/gi, '<\\/$1');
  const style = css.trim();
  const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const csp = `default-src 'none'; script-src ${hash(script)} 'wasm-unsafe-eval'; style-src ${hash(style)}; img-src data:; base-uri 'none'; form-action 'none'`;
  const stylesheet = '<link rel="stylesheet" href="app.css">';
  const module = '<script type="module" src="app.js"></script>';
  const policy = /<meta http-equiv="Content-Security-Policy" content="[^"]*">/;
  if (!policy.test(html)) throw new Error('web/index.html has no Content-Security-Policy meta tag to replace');
  const shell = html.replace(/^<link rel="modulepreload".*\n/gm, '')
    .replace(policy, () => `<meta http-equiv="Content-Security-Policy" content="${csp}">`);
  if (/(src|href)="(?!data:|#)/.test(shell.replace(stylesheet, '').replace(module, ''))) {
    throw new Error('web/index.html refers to a file that gpusizer.html would not carry');
  }
  // Replacer functions: the minified code holds "$&"-like sequences that a string would expand.
  return shell.replace(stylesheet, () => `<style>${style}</style>`).replace(module, () => `<script type="module">${script}</script>`);
}

await main();
