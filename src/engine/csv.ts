// The one CSV writer (RFC 4180): the tournament's table (engine/tournament.ts) and the /stats
// export (stats/export.ts) both write through it. Pure: no Node module, so the engine may use it.

/** A cell: text, a number, a boolean (`true`/`false`), or empty (null). */
export type CsvCell = string | number | boolean | null;

/**
 * One cell as written. Text that starts like a spreadsheet formula (= + - @, or a tab or carriage
 * return a spreadsheet strips before reading it) gets a leading apostrophe, so Excel, LibreOffice
 * and Google Sheets show it as text instead of running it (CSV injection); numbers are never
 * touched (-0.5 points stay a number). A cell holding a comma, a quote or a line break is quoted,
 * its quotes doubled.
 */
export function csvCell(v: CsvCell): string {
  if (v === null) return '';
  let s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One record: its cells joined with commas and ended with CRLF (RFC 4180). */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** A whole table: the header and the rows, every line ended with CRLF. */
export function csvTable(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return csvLine(header) + rows.map(csvLine).join('');
}
