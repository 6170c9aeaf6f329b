// Takes the README's pictures of the page: desktop (1280 px) and phone (360 px) widths, English
// and Chinese, plus desktop in dark mode, into docs/screenshots/. Uses the offline file, so no
// server is needed. Chinese text needs a CJK font on the machine (Debian: fonts-noto-cjk).
// Usage: node scripts/screenshots.mjs   (after scripts/build)
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, offlineUrl } from '../tests/e2e/chromium.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), '../docs/screenshots');
// A serving scenario where every part of the bar is visible and some GPUs do not fit.
const HASH = '#model=qwen2.5-14b&seq_len=16384&batch=8&gpu=l40s';
const SHOTS = [
  { name: 'desktop-en', width: 1280, height: 1000, locale: 'en-US' },
  { name: 'desktop-zh', width: 1280, height: 1000, locale: 'zh-CN' },
  { name: 'desktop-en-dark', width: 1280, height: 1000, locale: 'en-US', colorScheme: 'dark' },
  { name: 'phone-en', width: 360, height: 780, locale: 'en-US', fullPage: true },
  { name: 'phone-zh', width: 360, height: 780, locale: 'zh-CN', fullPage: true },
  // What it takes on every GPU type, and what would make it fit: a 70B model on one A100.
  { name: 'takes-en', width: 1280, height: 1000, locale: 'en-US', hash: '#model=llama-3.1-70b&gpu=a100-80gb&seq_len=8192&batch=4',
    element: '.card:has(#fits-h)' },
  // The lookup table with its column settings above it.
  { name: 'table-en', width: 1280, height: 1000, locale: 'en-US', open: '#lookup details', element: '#lookup' },
];

await mkdir(out, { recursive: true });
const browser = await launch();
for (const shot of SHOTS) {
  const context = await browser.newContext({ viewport: { width: shot.width, height: shot.height },
    locale: shot.locale, colorScheme: shot.colorScheme ?? 'light', deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(offlineUrl(shot.hash ?? HASH));
  await page.waitForSelector('html.ready');
  if (shot.open) {
    await page.locator(`${shot.open} > summary`).click();
    await page.waitForSelector(`${shot.element} table`);
  }
  // A full-page picture shows every section as a reader scrolling would see it: the sections below the
  // memory card are rendered only near the viewport (content-visibility: auto in web/app.css), which a
  // single capture of the whole page never reaches.
  if (shot.fullPage) {
    await page.evaluate(() => {  // through CSSOM: the page's CSP allows no inline style sheet
      for (const id of ['ranking', 'prices', 'launch', 'lookup']) document.getElementById(id).style.contentVisibility = 'visible';
    });
  }
  const path = join(out, `${shot.name}.png`);
  if (shot.element) await page.locator(shot.element).first().screenshot({ path });
  else await page.screenshot({ path, fullPage: shot.fullPage ?? false });
  await context.close();
  console.log(`docs/screenshots/${shot.name}.png`);
}
await browser.close();
