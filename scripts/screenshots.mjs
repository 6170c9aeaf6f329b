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
];

await mkdir(out, { recursive: true });
const browser = await launch();
for (const shot of SHOTS) {
  const context = await browser.newContext({ viewport: { width: shot.width, height: shot.height },
    locale: shot.locale, colorScheme: shot.colorScheme ?? 'light', deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(offlineUrl(HASH));
  await page.waitForSelector('html.ready');
  await page.screenshot({ path: join(out, `${shot.name}.png`), fullPage: shot.fullPage ?? false });
  await context.close();
  console.log(`docs/screenshots/${shot.name}.png`);
}
await browser.close();
