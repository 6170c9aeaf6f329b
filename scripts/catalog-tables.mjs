#!/usr/bin/env node
// Rewrites the generated tables of docs/catalog.md from core/data/instances.json:
//   the network of every instance (section "Networks") and every price with its date
//   (section "Prices and their dates"). Run it after editing instances.json:
//     node scripts/catalog-tables.mjs          rewrite docs/catalog.md
//     node scripts/catalog-tables.mjs --check  exit 1 if docs/catalog.md is out of date
// The tables sit between <!-- BEGIN name --> and <!-- END name --> markers.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const data = JSON.parse(readFileSync(join(root, 'core/data/instances.json'), 'utf8'));
const docPath = join(root, 'docs/catalog.md');
const cell = (s) => String(s).replace(/\|/g, '\\|');

function networkTable() {
  const rows = ['| provider | instance | region | GPUs | GPU link | GB/s per GPU | network Gbit/s | RDMA | cluster | source key |',
    '|---|---|---|---|---|---|---|---|---|---|'];
  for (const i of data.instances) {
    rows.push(`| ${cell(i.provider_id)} | ${cell(i.instance)} | ${cell(i.region)} | ${i.gpus} x ${i.gpu_id} | ${i.gpu_link} | ` +
      `${i.gpu_link_bytes_per_s / 1e9} | ${i.network_gbps || 'unknown'} | ${i.rdma || 'TCP'} | ${i.cluster ? 'yes' : 'no'} | ${i.network_source} |`);
  }
  return rows.join('\n');
}

function priceTable() {
  const rows = ['| provider | instance | region | billing | price per instance-hour | price date | source key |',
    '|---|---|---|---|---|---|---|'];
  for (const i of data.instances) {
    rows.push(`| ${cell(i.provider)} | ${cell(i.instance)} | ${cell(i.region)} | ${i.billing}${i.billing_term ? ` ${i.billing_term}` : ''} | ${i.price_per_hour} ${i.currency} | ` +
      `${cell(i.price_date)} | ${i.source} |`);
  }
  return rows.join('\n');
}

function replace(text, name, body) {
  const begin = `<!-- BEGIN ${name} -->`, end = `<!-- END ${name} -->`;
  const a = text.indexOf(begin), b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`docs/catalog.md: markers for ${name} missing`);
  return text.slice(0, a + begin.length) + '\n' + body + '\n' + text.slice(b);
}

const old = readFileSync(docPath, 'utf8');
let doc = replace(old, 'network-table', networkTable());
doc = replace(doc, 'price-table', priceTable());
if (process.argv.includes('--check')) {
  if (doc !== old) { console.error('docs/catalog.md is out of date: run node scripts/catalog-tables.mjs'); process.exit(1); }
} else writeFileSync(docPath, doc);
