// A strict RFC 4180 reader for the tests of the CSV files the bot writes (/stats export, the
// tournament table): quoted cells with doubled quotes and line breaks, CRLF records. It throws on
// what a careful importer would reject (a stray quote, a record of another width).

/** The records of a CSV text (a leading byte order mark is skipped). */
export function parseCsv(text: string): string[][] {
  const s = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < s.length) {
    const ch = s[i]!;
    if (quoted) {
      if (ch === '"' && s[i + 1] === '"') {
        cell += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i++;
        if (i < s.length && s[i] !== ',' && s[i] !== '\r') throw new Error(`text after a closing quote at ${i}`);
      } else {
        cell += ch;
        i++;
      }
    } else if (ch === '"') {
      if (cell !== '') throw new Error(`a quote inside an unquoted cell at ${i}`);
      quoted = true;
      i++;
    } else if (ch === ',') {
      row.push(cell);
      cell = '';
      i++;
    } else if (ch === '\r' && s[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 2;
    } else if (ch === '\n' || ch === '\r') {
      throw new Error(`a bare line break at ${i}: records end with CRLF`);
    } else {
      cell += ch;
      i++;
    }
  }
  if (quoted) throw new Error('an unclosed quote');
  if (cell !== '' || row.length) throw new Error('the last record has no CRLF');
  const width = rows[0]?.length ?? 0;
  rows.forEach((r, n) => {
    if (r.length !== width) throw new Error(`record ${n} has ${r.length} cells, the header ${width}`);
  });
  return rows;
}

/** The records as objects keyed by the header's names. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
}
