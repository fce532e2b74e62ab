/**
 * CSV building (RFC 4180), without I/O: comma-separated, CRLF line ends (also after the last row), a
 * cell is quoted when it holds a comma, a double quote, CR or LF, and quotes inside are doubled.
 *
 * Formula (CSV) injection: a text cell that starts with `=`, `+`, `-`, `@`, tab or CR would be run as a
 * formula by Excel, LibreOffice or Google Sheets. Such cells get a leading single quote (OWASP), so the
 * spreadsheet shows the text instead of evaluating it. Numbers the service itself wrote are left as
 * they are (a number is never a formula, and `-3` must stay a number).
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** Prefixes a text that a spreadsheet would evaluate with a single quote. */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell: null/undefined → empty, finite numbers and booleans as written, objects as JSON, text neutralized and quoted when needed. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  const text = neutralizeFormula(typeof value === 'string' ? value : JSON.stringify(value));
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** A whole document: the header row, then one line per row. */
export function toCsv(header: readonly string[], rows: Iterable<readonly unknown[]>): string {
  const lines = [csvLine(header)];
  for (const row of rows) lines.push(csvLine(row));
  return lines.join('');
}

/** Reads RFC 4180 text back into rows of strings (tests, and imports of exported files). Throws on a broken quote. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  const endRow = () => {
    endCell();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') cell += ch;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') endCell();
    else if (ch === '\r' && text[i + 1] === '\n') {
      endRow();
      i++;
    } else if (ch === '\n') endRow();
    else if (ch === '"') throw new Error(`unexpected quote in an unquoted cell at offset ${i}`);
    else cell += ch;
  }
  if (quoted) throw new Error('unterminated quoted cell');
  if (cell !== '' || row.length > 0) endRow();
  return rows;
}

/** The movement columns of the inventory export (the quantities people filter and sum in a spreadsheet). */
export const MOVEMENT_CSV_COLUMNS = [
  'id',
  'date',
  'type',
  'flockId',
  'cycleId',
  'quantity',
  'quantityKg',
  'liters',
  'totalEggs',
  'feedType',
  'cause',
  'reason',
  'product',
  'vaccine',
  'notes',
  'fields',
  'lockType',
  'createdAt',
  'createdBy',
] as const;

const FIELD_COLUMNS = ['quantity', 'quantityKg', 'liters', 'totalEggs', 'feedType', 'cause', 'reason', 'product', 'vaccine', 'notes'] as const;

export interface CsvMovement {
  id: string;
  date: string;
  type: string;
  /** null: a delivery booked on the farm, without a cycle. */
  flockId: string | null;
  cycleId: string | null;
  fields: Record<string, unknown>;
  lock: { type: string } | null;
  createdAt: string;
  createdBy: string;
}

/** One row per movement: the main fields in their own columns, every field (complete) as JSON in `fields`. */
export function movementRow(m: CsvMovement): unknown[] {
  return [
    m.id,
    m.date,
    m.type,
    m.flockId,
    m.cycleId,
    ...FIELD_COLUMNS.map((f) => m.fields[f]),
    Object.keys(m.fields).length ? m.fields : '',
    m.lock?.type ?? '',
    m.createdAt,
    m.createdBy,
  ];
}

export function movementsCsv(movements: Iterable<CsvMovement>): string {
  const rows: unknown[][] = [];
  for (const m of movements) rows.push(movementRow(m));
  return toCsv(MOVEMENT_CSV_COLUMNS, rows);
}
