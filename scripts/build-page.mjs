// Builds the page into dist/ from web/ and the wasm build (build/wasm/gpusizer.mjs + .wasm):
//   hosted   index.html and embed.html (the CSS inline), app.js, embed.js, gpusizer.mjs, gpusizer-wasm.js
//            (the wasm packed as text, see web/wasm-bytes.js), and gpusizer.wasm for other users
//            of the module (node, other pages);
//   offline  gpusizer.html: one file with the CSS and the JS, the glue and the wasm packed
//            together (OFFLINE_PACKING), for file:// (where module scripts from files are blocked)
//            and no network at all.
// All three pages carry the default scenario's memory card, drawn here by the shipped core and the
// page's own views in both languages (scripts/prerender.mjs), so the first figure paints before
// any script has run.
// esbuild bundles and minifies (a build tool only: nothing of it ships); terser minifies the offline
// file's app once more (squeeze() below).
import * as esbuild from 'esbuild';
import { minify as terser } from 'terser';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { START_SCRIPT, bothLangs, prerender, scriptHash, staticMarkup } from './prerender.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'web');
const dist = join(root, 'dist');
const wasmBuild = join(root, 'build/wasm');

// Browsers with top-level await in modules and CSS :has() (2022-2023 onward).
const target = ['chrome105', 'firefox121', 'safari15.4'];
// The two core files are outputs of this script, not sources: beside the bundle when hosted (in the
// order web/facade.js imports them; the inline language script preloads them for a linked page,
// data-core), inlined when offline.
const CORE_MODULES = ['gpusizer.mjs', 'gpusizer-wasm.js'];
const CORE_FILES = new RegExp(`^\\./(${CORE_MODULES.map((f) => f.replace(/[.-]/g, '\\$&')).join('|')})$`);

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
  ]);

  const pages = Object.fromEntries(await Promise.all(['index.html', 'embed.html'].map(async (f) => [f, await readFile(join(web, f), 'utf8')])));
  const first = prerender(await checkPair(wasm), staticKeys(Object.values(pages).join('')));
  // charset utf8: the Chinese of web/i18n.js as UTF-8 rather than \uXXXX escapes, readable in the
  // output. Module scripts are always decoded as UTF-8, and the offline page's CSP hash is of the
  // script's UTF-8 bytes.
  const common = { bundle: true, format: 'esm', minify: true, target, legalComments: 'none', logLevel: 'warning', charset: 'utf8' };
  await esbuild.build({
    ...common,
    entryPoints: { app: join(web, 'main.js'), embed: join(web, 'embed.js') },
    outdir: dist,
    plugins: [{ name: 'core-beside', setup: (b) => b.onResolve({ filter: CORE_FILES }, (a) => ({ path: a.path, external: true })) }],
  });
  // The stylesheet, with where the static card's capacity label sits (bar.js sets it through CSSOM
  // on the live one), goes inline in every page (withStyle below).
  const styled = await esbuild.build({ ...common, entryPoints: [join(web, 'app.css')], write: false });
  const css = styled.outputFiles[0].text.trim() + first.css.trimEnd();
  const index = withStyle(withFirstFigure(pages['index.html'], first, staticMarkup(first)), css);
  await writeFile(join(dist, 'index.html'), index);
  await writeFile(join(dist, 'embed.html'),
    withStyle(withFirstFigure(pages['embed.html'], first, staticMarkup(first, first.fits)), css));

  // The offline file: the app (with the glue) and the wasm packed together as one LZMA stream
  // (OFFLINE_PACKING below); a small loader script unpacks them, hands the wasm over and runs the app.
  const offline = await esbuild.build({
    ...common,
    entryPoints: [join(web, 'main.js')],
    write: false,
    plugins: [{
      name: 'core-inline',
      setup(b) {
        b.onResolve({ filter: CORE_FILES }, (a) => ({ path: a.path, namespace: 'core' }));
        b.onResolve({ filter: /^\.\/wasm-bytes\.js$/ }, (a) => ({ path: a.path, namespace: 'core' }));
        b.onLoad({ filter: /.*/, namespace: 'core' }, (a) => ({
          contents: a.path === './gpusizer.mjs' ? glue : OFFLINE_WASM[a.path], loader: 'js' }));
      },
    }],
  });
  const loader = await esbuild.build({
    ...common,
    stdin: { contents: OFFLINE_LOADER, resolveDir: web, loader: 'js' },
    write: false,
  });
  await writeFile(join(dist, 'gpusizer.html'), inline(index, css, await squeeze(offline.outputFiles[0].text), loader.outputFiles[0].text, wasm));
}

// The offline file's app and glue, minified again by terser after esbuild (its compressor's second
// pass and its name mangling), which keeps the offline file well inside its size guard. Only
// terser's safe transforms (no `unsafe*` options); the syntax stays that of esbuild's target.
async function squeeze(js) {
  const out = await terser(js, { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  return out.code;
}

// OFFLINE_PACKING: the offline file carries app.js, the glue and the wasm as
// ONE LZMA stream (base64 in a data block), not the app as gzip-compressed text beside an LZMA-packed
// wasm: LZMA packs the minified app about a tenth smaller than gzip does, and the app's strings
// match some of the wasm's (docs/notes/size-history.md has the figures).
// The app and the glue the loader runs (its text is pinned by its SHA-256 in the page's CSP), in
// place of the two modules the hosted page loads: the wasm comes from the loader, not from text.
const OFFLINE_WASM = {
  './gpusizer-wasm.js': 'export default "";',
  './wasm-bytes.js': 'export const wasmFromText = () => globalThis.gpusizerWasm;',
};
// The loader, a module the inline start script runs (scripts/prerender.mjs START_SCRIPT: after the
// default link's first paint, when parsed for a link with a scenario of its own): the stream is the
// app's UTF-8 text then the wasm; data-js says where the text ends.
const OFFLINE_LOADER = `import { lzmaDecode } from './lzma.js';
const block = document.getElementById('gpusizer-packed');
const binary = atob(block.textContent);
const packed = new Uint8Array(binary.length);
for (let i = 0; i < binary.length; i++) packed[i] = binary.charCodeAt(i);
const bytes = lzmaDecode(packed);
const split = Number(block.dataset.js);
globalThis.gpusizerWasm = bytes.slice(split);
const app = document.createElement('script');
app.type = 'module';
app.textContent = new TextDecoder().decode(bytes.subarray(0, split));
document.body.append(app);
`;

// The i18n keys of a page's static texts: its data-i18n elements, and the language button's label.
const staticKeys = (html) => [...new Set([...html.matchAll(/ data-i18n="([^"]+)"/g)].map((m) => m[1]).concat('otherLang'))];

// The page with the language picker inline in its head (allowed by its hash in the page's CSP),
// the static figure in place of <!--first-figure-->, and its static texts (each data-i18n element's,
// the loading line, the language button's) in both languages: the first paint is in the reader's
// language before any of the app has run (web/main.js words them again after it).
function withFirstFigure(html, first, markup) {
  const marks = ['<!--lang-script-->', '<!--first-figure-->'];
  for (const mark of marks) if (!html.includes(mark)) throw new Error(`a page in web/ has no ${mark} to replace`);
  // The page's module script: started by the inline script (data-app), not by the parser.
  const [module, app] = /<script type="module" src="([^"]+)"><\/script>\n?/.exec(html)
    ?? (() => { throw new Error('a page in web/ has no <script type="module" src> for its app'); })();
  const policy = /(<meta http-equiv="Content-Security-Policy" content="[^"]*script-src 'self')/;
  if (!policy.test(html)) throw new Error("a page in web/ has no CSP meta tag with script-src 'self'");
  return html.replace(policy, (m) => `${m} ${scriptHash(START_SCRIPT)}`)
    .replace(module, '')
    .replace(marks[0], () => `<script data-app="${app}" data-core="${CORE_MODULES.join(' ')}">${START_SCRIPT}</script>`)
    .replace(marks[1], () => markup)
    .replace(/( data-i18n="([^"]+)"[^>]*>)[^<]*<\//g, (m, open, key) => `${open}${bothLangs(first.texts[key])}</`)
    // The button names the other language, in that language.
    .replace('<button type="button" id="lang" class="lang"></button>', () => '<button type="button" id="lang" class="lang">'
      + `<span class="only-en" lang="zh-CN">${first.texts.otherLang.en}</span><span class="only-zh" lang="en">${first.texts.otherLang.zh}</span></button>`);
}

// The stylesheet inline in the page's head, allowed by its SHA-256 in the page's CSP in place of
// style-src 'self': the first paint waits for no request (the browser holds it until every stylesheet
// in the head has arrived), and the page's own CSS is its only style.
function withStyle(html, css) {
  const stylesheet = '<link rel="stylesheet" href="app.css">';
  if (!html.includes(stylesheet)) throw new Error(`a page in web/ has no ${stylesheet} to inline`);
  if (!html.includes("style-src 'self'")) throw new Error("a page in web/ has no CSP style-src 'self' to pin");
  if (css.includes('</style')) throw new Error('the CSS holds "</style", which would end the inline style');
  const hash = `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
  return html.replace("style-src 'self'", () => `style-src ${hash}`).replace(stylesheet, () => `<style>${css}</style>`);
}

// The glue and the wasm must come from the same link (their import names are minified): a wasm
// build running while this script reads them can tear the pair, so instantiate it once here.
async function checkPair(wasm) {
  const { default: create } = await import(pathToFileURL(join(dist, 'gpusizer.mjs')).href);
  const module = await create({ wasmBinary: wasm }).catch((error) => {
    throw new Error(`build/wasm/gpusizer.mjs and .wasm do not match (a wasm build still running?): ${error}`);
  });
  // The shape web/facade.js gives the page, for the calls prerender() makes.
  const call = (command, input) => JSON.parse(module[command](JSON.stringify(input)));
  return {
    catalog: () => JSON.parse(module.catalog()),
    estimate: (scenario) => call('estimate', scenario),
    fits: (scenario) => call('fits', scenario),
    configKeys: (config) => call('config_keys', config),
  };
}

// The wasm packed by xz-utils in the .lzma format that web/lzma.js decodes, with the real size
// in the header (xz writes "unknown" when it reads a pipe) so the decoder knows where to stop.
// lc=4 (literals coded on the previous byte's 4 high bits), pb=0 (no 4-byte position classes; wasm
// code is byte-aligned) packed smaller than -9e's lc=3 pb=2 (docs/notes/size-history.md). web/lzma.js reads any lc/lp/pb from the properties byte.
function lzmaPack(bytes) {
  const xz = spawnSync('xz', ['--format=lzma', '--lzma1=preset=9e,lc=4,pb=0', '--stdout'], { input: bytes, maxBuffer: 1 << 30 });
  if (xz.status !== 0) throw new Error(`xz failed (Debian package xz-utils): ${xz.error ?? xz.stderr}`);
  xz.stdout.writeBigUInt64LE(BigInt(bytes.length), 5);
  return xz.stdout;
}

// The hosted page with its script inlined (its stylesheet already is), its preloads dropped, and its CSP
// meta tag replaced by one that allows no request at all (so "works offline" is enforced by the
// browser, not just hoped) and only the inlined script and style, pinned by their SHA-256.
function inline(html, css, js, loaderJs, wasm) {
  // "</script" inside a string would end the inline script; "<\/script" is the same string.
  const script = loaderJs.replace(/<\/(script)/gi, '<\\/$1');
  const app = Buffer.from(js, 'utf8');
  const packed = lzmaPack(Buffer.concat([app, wasm])).toString('base64');
  const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  // The app's hash: the loader inserts it as an inline module, which the CSP checks like any other.
  const csp = `default-src 'none'; script-src ${hash(script)} ${hash(js)} ${scriptHash(START_SCRIPT)} 'wasm-unsafe-eval'; style-src ${hash(css)}; img-src data:; base-uri 'none'; form-action 'none'`;
  const policy = /<meta http-equiv="Content-Security-Policy" content="[^"]*">/;
  if (!policy.test(html)) throw new Error('web/index.html has no Content-Security-Policy meta tag to replace');
  const start = `<script data-app="app.js" data-core="${CORE_MODULES.join(' ')}">${START_SCRIPT}</script>`;
  if (!html.includes(start)) throw new Error('the hosted page has no inline start script to replace');
  const shell = html.replace(start, () => `<script data-loader="gpusizer-loader">${START_SCRIPT}</script>`)
    .replace(policy, () => `<meta http-equiv="Content-Security-Policy" content="${csp}">`);
  if (/(src|href)="(?!data:|#)|data-(app|core)=/.test(shell)) {
    throw new Error('web/index.html refers to a file that gpusizer.html would not carry');
  }
  // Replacer functions: the minified code holds "$&"-like sequences that a string would expand.
  // The packed app and wasm (~95 % of the file) and their loader go last in the body, the parser
  // reaching the static figure without first tokenizing 350 KB of script (the first paint comes
  // sooner: docs/performance.md). The loader's text is inert until the start script runs it, as the
  // hosted pages' app (the same start script).
  if (!shell.includes('</body>')) throw new Error('web/index.html has no </body> to put the inlined script before');
  return shell
    .replace('</body>', () => `<script type="application/octet-stream" id="gpusizer-packed" data-js="${app.length}">${packed}</script>\n`
      + `<script type="text/plain" id="gpusizer-loader">${script}</script>\n</body>`);
}

await main();
