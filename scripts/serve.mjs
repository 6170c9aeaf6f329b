// A tiny static server for dist/: node:http only, loopback only, with the Content-Security-Policy
// the hosted page must work under, so that local runs and the e2e tests see the same
// restrictions as a strict host. Usage: node scripts/serve.mjs <dir> <port>  (port 0: any free one).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';

export const CSP =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  // The Hub fetch of a config.json (web/hub.js): exactly these two hosts, as web/index.html allows.
  'connect-src https://huggingface.co https://modelscope.cn';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export function startServer(dir, port = 0) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    let file = resolve(join(root, path));
    // Refuse anything outside the served folder (../ in the URL).
    if (file !== root && !file.startsWith(root + sep)) return send(res, 403, 'forbidden');
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
        'Content-Security-Policy': policyFor(file, body),
        // Public static files, as GitHub Pages serves them: the embed page in a sandboxed
        // iframe has an opaque origin, so its module scripts are cross-origin requests.
        'Access-Control-Allow-Origin': '*',
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-cache',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      send(res, 404, 'not found');
    }
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

// A strict host configured for the page: its inline scripts (the language picker that runs
// before the first paint, scripts/prerender.mjs) and its inline stylesheet allowed by their SHA-256, as the page's own
// meta tag allows them.
function policyFor(file, body) {
  if (extname(file) !== '.html') return CSP;
  const text = body.toString('utf8');
  const hashes = (pattern) => [...text.matchAll(pattern)]
    .map(([, code]) => ` 'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`).join('');
  return CSP.replace("script-src 'self'", `script-src 'self'${hashes(/<script(?: data-[a-z-]+="[^"]*")*>([^<]*)<\/script>/g)}`)
    .replace("style-src 'self'", `style-src 'self'${hashes(/<style>([\s\S]*?)<\/style>/g)}`);
}

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': CSP });
  res.end(text);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir = 'dist', port = '8080'] = process.argv.slice(2);
  const server = await startServer(dir, Number(port));
  console.log(`serving ${resolve(dir)} at http://127.0.0.1:${server.address().port}/`);
}
