// The Elo chart (issue 12): a valid PNG of the documented size, rendered from the bundled font
// (no system fonts), with Cyrillic names drawn (a missing glyph would draw nothing).
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CHART_HEIGHT, CHART_WIDTH, chartSvg, renderChart } from '../../src/stats/chart';

const points = Array.from({ length: 40 }, (_, i) => ({
  at: i * 86_400_000,
  value: 1000 + Math.round(30 * Math.sin(i / 4) + i),
}));

/** The decoded pixel rows of an 8-bit RGBA or RGB PNG (filters left in: enough to compare images). */
function pixels(png: Buffer): Buffer {
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const len = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  return inflateSync(Buffer.concat(idat));
}

describe('the Elo chart', () => {
  it('is a PNG of 800 × 360', () => {
    const png = renderChart({
      title: 'Alice — Elo, Classic (10)',
      points,
      fromLabel: '1 Jan 2026',
      toLabel: '9 Feb 2026',
      baseline: 1000,
    });
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
  });

  it('draws Cyrillic names with the bundled font', () => {
    const base = { points, fromLabel: '', toLabel: '', baseline: 1000 };
    const empty = pixels(renderChart({ ...base, title: '' }));
    const uk = pixels(renderChart({ ...base, title: 'Їжачок Ґанок — Ело' }));
    const ru = pixels(renderChart({ ...base, title: 'Ёжик Щукин — Эло' }));
    expect(uk.equals(empty)).toBe(false);
    expect(ru.equals(empty)).toBe(false);
    expect(uk.equals(ru)).toBe(false);
  });

  it('escapes names in the SVG (a name cannot inject markup)', () => {
    const svg = chartSvg({ title: '<script>&"x"</script>', points: points.slice(0, 1), fromLabel: 'a', toLabel: 'b' });
    expect(svg).toContain('&lt;script&gt;&amp;&quot;x&quot;&lt;/script&gt;');
    expect(() =>
      renderChart({
        title: '</text><image href="file:///etc/passwd"/>',
        points: points.slice(0, 1),
        fromLabel: 'a',
        toLabel: 'b',
      }),
    ).not.toThrow();
  });
});
