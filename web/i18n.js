// Every word and number the page shows, in English and 简体中文, by concern under i18n/: the
// language (lang.js), the page's own words and their lookup (words.js), the wordings of the core's
// message codes (codes.js) and the messages worded with them (messages.js), names of engines,
// providers and sources (names.js), numbers and units (format.js). The page imports from here.
export { getLang, initLang, setLang } from './i18n/lang.js';
export { has, hasEn, hasZh, t } from './i18n/words.js';
export {
  bytesPerS, compact, defaultCurrency, fixed, gb, gib, gibGb, hours, int, kib, millis, money, percent, rate, seconds,
} from './i18n/format.js';
export { engineName, providerName, setEngines, sourceText } from './i18n/names.js';
export { errorMessage, errorText, fieldName, note, reason, warning, wordedCodes, wordingKeys } from './i18n/messages.js';
