// The page's language: the link's, the stored choice or the browser's; every other part of i18n
// reads it here.
import { load, save } from '../storage.js';

export const LOCALES = { en: 'en-US', zh: 'zh-CN' };
let lang = 'en';

export const getLang = () => lang;

// The link's lang=, else the stored choice (unless `stored` is false), else the browser's language:
// any zh-* reads Simplified Chinese.
export function initLang(fromLink, stored = true) {
  const chosen = fromLink ?? (stored ? load('lang', null) : null) ?? (navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en');
  lang = Object.hasOwn(LOCALES, chosen) ? chosen : 'en';  // not `in`: "constructor" is in every object
  document.documentElement.lang = LOCALES[lang];
}

export function setLang(next) {
  lang = next;
  save('lang', next);
  document.documentElement.lang = LOCALES[lang];
}
