// Starts Debian's Chromium headless for the e2e tests, bench/bench-page and scripts/screenshots.mjs,
// with the flags of shared/notes/toolchain.md: no sandbox (root), nothing that phones home. Each
// launch gets a fresh temporary profile from playwright (it refuses --user-data-dir in args).
// Also serves dist/ on a free loopback port with the hosted page's CSP (scripts/serve.mjs).
import { chromium } from 'playwright-core';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';

export const DIST = join(dirname(fileURLToPath(import.meta.url)), '../../dist');
export const offlineUrl = (hash = '') => `${pathToFileURL(join(DIST, 'gpusizer.html')).href}${hash}`;

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    // WebUIOmniboxAimPopup, WebUIOmniboxPopup, WebUIOmniboxFullPopup: Chromium 156 otherwise starts a
    // "WebUI Top Renderer" for the omnibox popup of every new context, which loads its ~60 modules
    // (lit, the searchbox, the composebox) during the page's own navigation: ~1 s of CPU (a trace of
    // one page load) competing with the page for this machine's 2 cores. With the first
    // flag alone the popup still loaded (a trace); with all three, the first paint of a
    // one-heading page fell from 128 to 84 ms (median of 9, alternating). A user's browser
    // starts its omnibox popup once, not per page.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
      '--disable-features=WebUIOmniboxAimPopup,WebUIOmniboxPopup,WebUIOmniboxFullPopup'],
  });
}

// Returns {base: 'http://127.0.0.1:PORT/', close()}.
export async function serveDist() {
  const server = await startServer(DIST, 0);
  return { base: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

// Collects what must not happen on a page: console errors, uncaught exceptions, and requests for
// anything `allowed(url)` refuses. Returns the live list; a test asserts it is empty.
export function watch(page, allowed) {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('request', (r) => { if (!allowed(r.url())) problems.push(`request: ${r.url()}`); });
  return problems;
}

// The page sets html.ready after its first full render (web/main.js, web/embed.js).
export const ready = (page) => page.waitForSelector('html.ready', { timeout: 15000 });

// The offline file's own requests: itself (any hash) and the data: and blob: URLs it makes.
const offlineFile = offlineUrl();
export const offlineOwn = (url) => url.split('#')[0] === offlineFile || url.startsWith('data:') || url.startsWith('blob:');

// The offline file in a fresh context (English unless options say otherwise), computed:
// {page, problems (anything it requested beyond its own, any console error), close()}.
export async function openOffline(browser, hash = '', options = {}) {
  const context = await browser.newContext({ locale: 'en-US', ...options });
  const page = await context.newPage();
  const problems = watch(page, offlineOwn);
  await page.goto(offlineUrl(hash));
  await ready(page);
  return { page, problems, close: () => context.close() };
}
