// Numbers, units and currency in the page's locale, through Intl.
import { LOCALES, getLang } from './lang.js';

const formatters = new Map();
function nf(options) {
  const id = getLang() + JSON.stringify(options);
  if (!formatters.has(id)) formatters.set(id, new Intl.NumberFormat(LOCALES[getLang()], options));
  return formatters.get(id);
}

const GIB = 2 ** 30;
export const fixed = (n, digits) => nf({ minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
export const gib = (bytes) => `${fixed(bytes / GIB, 2)} GiB`;
export const int = (n) => nf({ maximumFractionDigits: 0 }).format(n);
// 8.03B in English, 80.3亿 in Chinese: each reader's own grouping of large numbers. By hand, as
// Intl's compact notation costs some 50 ms to set up, a tenth of the page's first render.
const STEPS = {
  en: [[1e12, 'T'], [1e9, 'B'], [1e6, 'M'], [1e3, 'K']],
  zh: [[1e12, '万亿'], [1e8, '亿'], [1e4, '万']],
};
export function compact(n) {
  const [size, suffix] = STEPS[getLang()].find(([step]) => Math.abs(n) >= step) ?? [1, ''];
  return nf({ maximumSignificantDigits: 3, useGrouping: false }).format(n / size) + suffix;
}
export const percent = (share) => nf({ style: 'percent', maximumFractionDigits: 0 }).format(share);
export const money = (value, currency) =>
  nf({ style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: value < 1 ? 4 : 2 }).format(value);
export const rate = (tokensPerS) => `${int(tokensPerS)} tokens/s`;
export const hours = (h) => `${fixed(h, h < 10 ? 2 : h < 100 ? 1 : 0)} ${getLang() === 'zh' ? '小时' : 'h'}`;
export const seconds = (s) => `${fixed(s, s < 10 ? 2 : 1)} s`;
export const millis = (s) => `${fixed(s * 1000, s < 0.1 ? 1 : 0)} ms`;
export const bytesPerS = (b) => `${fixed(b / 1e12, 2)} TB/s`;
export const kib = (bytes) => `${fixed(bytes / 1024, bytes % 1024 ? 1 : 0)} KiB`;
export const gb = (bytes) => `${fixed(bytes / 1e9, 1)} GB`;
// Both units side by side where a reader compares with a label ("24 GB") or with nvidia-smi (MiB).
export const gibGb = (bytes) => `${gib(bytes)} (${gb(bytes)})`;

// In Chinese the page prices in yuan unless the scenario says otherwise.
export const defaultCurrency = () => (getLang() === 'zh' ? 'CNY' : 'USD');
