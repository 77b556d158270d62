// /host log's pages (issue 20): every audit entry is shown, whatever its length. A page holds at
// most LOG_PAGE lines and never more characters than its room; a line longer than a page by itself
// goes on over the next page; nothing is dropped or cut off.
import { describe, expect, it } from 'vitest';
import { LOG_PAGE, pageLines, splitText } from '../../src/discord/host-tools';

const words = (n: number, tag: string) => Array.from({ length: n }, (_, k) => `${tag}${k}`).join(' ');

describe('/host log pages (G-7 audit log)', () => {
  it('short lines: LOG_PAGE to a page, in order', () => {
    const lines = Array.from({ length: 30 }, (_, k) => `line ${k}`);
    const pages = pageLines(lines, 1900);
    expect(pages.map((p) => p.length)).toEqual([LOG_PAGE, LOG_PAGE, 30 - 2 * LOG_PAGE]);
    expect(pages.flat()).toEqual(lines);
  });

  it('long lines: fewer to a page, none over the room, every line whole', () => {
    const lines = Array.from({ length: 25 }, (_, k) => `${k}: ${'x'.repeat(300)}`);
    const pages = pageLines(lines, 1000);
    for (const p of pages) expect(p.join('\n').length).toBeLessThanOrEqual(1000);
    expect(pages.flat()).toEqual(lines);
    expect(pages.length).toBeGreaterThan(Math.ceil(25 / LOG_PAGE));
  });

  it('a line longer than a page is split over pages, and its text is all there', () => {
    const long = words(400, 'w'); // about 2,000 characters
    const lines = ['before', long, 'after'];
    const pages = pageLines(lines, 500);
    for (const p of pages) expect(p.join('\n').length).toBeLessThanOrEqual(500);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    const flat = pages.flat();
    expect(flat[0]).toBe('before');
    expect(flat.at(-1)).toBe('after');
    // Cut at spaces: the pieces joined by spaces give back the line.
    expect(flat.slice(1, -1).join(' ')).toBe(long);
  });

  it('a line with no space is cut hard, never inside a surrogate pair', () => {
    const line = '😀'.repeat(300); // 600 UTF-16 units
    const pieces = splitText(line, 101);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(101);
      expect(p).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
    expect(pieces.join('')).toBe(line);
  });
});
