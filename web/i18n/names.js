// Names of what the catalog lists: engines (the core's own names and per-task lists, set once from
// the catalog at start-up), cloud providers and price sources in the page's language.
import { getLang } from './lang.js';

// The core's catalog: `engine_names` (brands, the same in both languages: core/src/scenario/
// engines.cpp) and `engines` (the ids per task); the engine_serving / engine_training errors list
// the other task's engines.
let engineNames = {};
let serving = [];
let training = [];
export function setEngines(engines, names) {
  serving = engines?.inference ?? [];
  training = engines?.training ?? [];
  engineNames = names ?? {};
}
export const engineName = (id) => (Object.hasOwn(engineNames, id) ? engineNames[id] : String(id));
export const servingEngines = () => serving;
export const trainingEngines = () => training;

// Cloud providers by the catalog's name (two AWS offers share an id), else by id; English keeps the
// catalog's own names.
const PROVIDERS_ZH = {
  'Alibaba Cloud ECS': '阿里云 ECS', 'Tencent Cloud CVM': '腾讯云 CVM', 'Huawei Cloud ECS': '华为云 ECS',
  'Microsoft Azure': '微软 Azure', 'Google Cloud': '谷歌云', 'AWS EC2': 'AWS EC2',
  'AWS EC2 Capacity Blocks': 'AWS EC2 容量块', 'Baidu AI Cloud': '百度智能云', 'Volcano Engine': '火山引擎',
};
const PROVIDER_IDS_ZH = { alibaba: '阿里云', tencent: '腾讯云', huawei: '华为云', baidu: '百度智能云',
  volcengine: '火山引擎', azure: '微软 Azure', gcp: '谷歌云', aws: 'AWS', lambda: 'Lambda', runpod: 'RunPod' };
export const providerName = (id, name) =>
  (getLang() === 'zh' ? PROVIDERS_ZH[name] ?? PROVIDER_IDS_ZH[id] ?? name ?? id : name ?? id);

// A price's source citation: in English as the catalog words it; in Chinese its short name (the
// repository and file, or the page), the English gloss after it left to docs/catalog.md.
export const sourceText = (text = '') => (getLang() === 'zh' ? text.split(/ \(|: | '/)[0] : text);
