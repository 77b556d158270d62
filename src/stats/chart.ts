// The player's Elo over time as a PNG: an SVG built here, rendered by @resvg/resvg-js (a native
// renderer shipped inside its npm package: no browser, no download at run time) with the DejaVu
// Sans font committed in assets/fonts (Latin and Cyrillic), never the system's fonts.
import { Resvg } from '@resvg/resvg-js';
import { resolve } from 'node:path';

export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 360;
export const FONT_FILE = resolve(import.meta.dirname, '..', '..', 'assets', 'fonts', 'DejaVuSans.ttf');

export interface ChartInput {
  title: string;
  /** Values oldest first (Elo after each game). */
  points: { at: number; value: number }[];
  /** The first and last dates, already formatted in the reader's language. */
  fromLabel: string;
  toLabel: string;
  /** A level drawn as a dashed line (the rating's start). */
  baseline?: number;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function chartSvg(c: ChartInput): string {
  const W = CHART_WIDTH;
  const H = CHART_HEIGHT;
  const m = { l: 64, r: 24, t: 48, b: 40 };
  const values = c.points.map((p) => p.value);
  if (c.baseline !== undefined) values.push(c.baseline);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 10) {
    lo -= 5;
    hi += 5;
  }
  const pad = (hi - lo) * 0.08;
  lo = Math.floor(lo - pad);
  hi = Math.ceil(hi + pad);
  const n = c.points.length;
  const x = (i: number) => m.l + (n <= 1 ? (W - m.l - m.r) / 2 : (i * (W - m.l - m.r)) / (n - 1));
  const y = (v: number) => m.t + ((hi - v) * (H - m.t - m.b)) / (hi - lo);
  const ticks = 5;
  const grid: string[] = [];
  for (let k = 0; k <= ticks; k++) {
    const v = lo + ((hi - lo) * k) / ticks;
    grid.push(`<line x1="${m.l}" x2="${W - m.r}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e3e5e8"/>`);
    grid.push(
      `<text x="${m.l - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" font-size="12" fill="#4e5058">${Math.round(v)}</text>`,
    );
  }
  const path = c.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  const dots =
    n <= 60
      ? c.points
          .map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="3" fill="#5865f2"/>`)
          .join('')
      : '';
  const base =
    c.baseline !== undefined
      ? `<line x1="${m.l}" x2="${W - m.r}" y1="${y(c.baseline).toFixed(1)}" y2="${y(c.baseline).toFixed(1)}" stroke="#b5bac1" stroke-dasharray="6 4"/>`
      : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<rect width="${W}" height="${H}" fill="#ffffff"/>
<text x="${m.l}" y="30" font-size="18" font-weight="bold" fill="#060607">${esc(c.title)}</text>
${grid.join('\n')}
${base}
<path d="${path}" fill="none" stroke="#5865f2" stroke-width="2.5" stroke-linejoin="round"/>
${dots}
<text x="${m.l}" y="${H - 14}" font-size="12" fill="#4e5058">${esc(c.fromLabel)}</text>
<text x="${W - m.r}" y="${H - 14}" text-anchor="end" font-size="12" fill="#4e5058">${esc(c.toLabel)}</text>
</svg>`;
}

/** The chart as PNG bytes (about 5 ms for 200 points). */
export function renderChart(c: ChartInput): Buffer {
  const r = new Resvg(chartSvg(c), {
    font: {
      fontFiles: [FONT_FILE],
      loadSystemFonts: false,
      defaultFontFamily: 'DejaVu Sans',
      sansSerifFamily: 'DejaVu Sans',
    },
    background: '#ffffff',
  });
  return r.render().asPng();
}
