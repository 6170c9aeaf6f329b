// The memory stacked bar: one segment per part of the breakdown, scaled against the card's usable
// memory, with a line where the card ends. Colours come from CSS classes (light and dark themes);
// the numbers live in the legend table beside it, so the SVG is decoration for screen readers.
import { h, s } from './dom.js';

export const PARTS = ['weights', 'draft_weights', 'gradients', 'optimizer', 'activations', 'kv_cache',
  'draft_kv_cache', 'runtime'];

// The parts this breakdown has: the speculative draft's come only with one (engine_options.speculative).
export const partsOf = (breakdown) => PARTS.filter((part) => part in breakdown);

export function memoryBar(breakdown, capacityBytes, capacityText) {
  const parts = partsOf(breakdown);
  const total = parts.reduce((sum, part) => sum + breakdown[part], 0);
  const scale = Math.max(total, capacityBytes ?? 0) || 1;
  const svg = s('svg', { class: 'bar-svg', viewBox: '0 0 1000 28', preserveAspectRatio: 'none', 'aria-hidden': 'true' });
  let x = 0;
  for (const part of parts) {
    const width = (breakdown[part] / scale) * 1000;
    if (width > 0) svg.append(s('rect', { class: `seg seg-${part}`, x, y: 0, width, height: 28 }));
    x += width;
  }
  const figure = h('div', { class: 'bar' }, svg);
  if (capacityBytes) {
    const at = (capacityBytes / scale) * 1000;
    if (total > capacityBytes) svg.append(s('rect', { class: 'over', x: at, y: 0, width: 1000 - at, height: 28 }));
    svg.append(s('line', { class: 'cap-line', x1: at, x2: at, y1: 0, y2: 28, 'vector-effect': 'non-scaling-stroke' }));
    const marker = h('span', { class: 'cap-label' }, capacityText);
    // Where the card ends, for app.css to place the label (kept inside the bar whatever its length).
    marker.style.setProperty('--at', `${at / 10}%`);  // CSSOM, which the CSP allows (a style="" attribute it does not)
    figure.append(marker);
  }
  return figure;
}
