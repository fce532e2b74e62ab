import { describe, expect, it } from 'vitest';
import { MOVEMENT_CSV_COLUMNS, csvCell, csvLine, movementRow, movementsCsv, neutralizeFormula, parseCsv, toCsv } from '../../shared/presentation/csv.js';

describe('csv cells (RFC 4180)', () => {
  it('leaves plain text, numbers and booleans as they are; empty for null and undefined', () => {
    expect(csvCell('starter')).toBe('starter');
    expect(csvCell(120.5)).toBe('120.5');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(-3)).toBe('-3'); // a number is never a formula
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('quotes cells with a comma, a quote, CR or LF and doubles inner quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('line1\r\nline2')).toBe('"line1\r\nline2"');
    expect(csvCell('"')).toBe('""""');
  });

  it('writes objects and arrays as JSON, quoted as needed', () => {
    expect(csvCell({ quantity: 5, cause: 'heat' })).toBe('"{""quantity"":5,""cause"":""heat""}"');
    expect(csvCell(['a'])).toBe('"[""a""]"');
  });

  it('neutralizes formulas: text starting with = + - @ tab or CR gets a leading single quote', () => {
    for (const text of ['=1+1', '+1', '-2+3', '@SUM(A1:A2)', '\tcmd', '\rcmd', '=HYPERLINK("http://evil.example","x")']) {
      expect(neutralizeFormula(text), JSON.stringify(text)).toBe(`'${text}`);
    }
    for (const text of ['1=1', 'a+b', 'mail@example.com', ' =not-first', "'quoted"]) expect(neutralizeFormula(text)).toBe(text);
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
    expect(csvCell('\rcmd')).toBe('"\'\rcmd"');
  });

  it('ends every line with CRLF, the last one too', () => {
    expect(csvLine(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n');
    expect(
      toCsv(
        ['x', 'y'],
        [
          [1, 2],
          ['3', '=4'],
        ],
      ),
    ).toBe("x,y\r\n1,2\r\n3,'=4\r\n");
    expect(toCsv(['x'], [])).toBe('x\r\n');
  });
});

describe('csv parsing (round trip)', () => {
  it('reads back exactly what was written, including quotes, commas and line breaks inside cells', () => {
    const rows = [
      ['plain', 'with,comma', 'with "quotes"', 'multi\nline', 'crlf\r\nline', '', 'end'],
      ['ü ñ 漢字', ' spaced ', '""', ',', '\n'],
    ];
    expect(parseCsv(toCsv(['a', 'b', 'c', 'd', 'e', 'f', 'g'], rows))).toEqual([['a', 'b', 'c', 'd', 'e', 'f', 'g'], ...rows]);
  });

  it('accepts LF line ends and a missing final line end; rejects a broken quote', () => {
    expect(parseCsv('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(() => parseCsv('"open')).toThrow(/unterminated/);
    expect(() => parseCsv('a"b')).toThrow(/unexpected quote/);
  });
});

describe('movement rows', () => {
  const movement = {
    id: '01JD3Y4Z9V6Q8K2M5N7P0R1S3T',
    date: '2026-11-02',
    type: 'bird_mortality',
    flockId: '01JD3Y4Z9V6Q8K2M5N7P0R1S3A',
    cycleId: '01JD3Y4Z9V6Q8K2M5N7P0R1S3B',
    fields: { quantity: 5, cause: 'heat', notes: '=cmd|"/c calc"!A1, then\nmore' },
    lock: { type: 'manual' },
    createdAt: '2026-11-02T08:00:00.000Z',
    createdBy: '01JD3Y4Z9V6Q8K2M5N7P0R1S3C',
  };

  it('puts the main fields in their own columns and every field as JSON in `fields`', () => {
    const [header, row] = parseCsv(movementsCsv([movement]));
    expect(header).toEqual([...MOVEMENT_CSV_COLUMNS]);
    const cell = Object.fromEntries(header!.map((h, i) => [h, row![i]]));
    expect(cell).toMatchObject({
      id: movement.id,
      date: '2026-11-02',
      type: 'bird_mortality',
      quantity: '5',
      quantityKg: '',
      cause: 'heat',
      notes: `'${movement.fields.notes}`,
      lockType: 'manual',
      createdBy: movement.createdBy,
    });
    expect(JSON.parse(cell.fields!)).toEqual(movement.fields);
  });

  it('leaves lockType and fields empty when there is nothing to say', () => {
    const row = movementRow({ ...movement, fields: {}, lock: null });
    expect(row[MOVEMENT_CSV_COLUMNS.indexOf('fields')]).toBe('');
    expect(row[MOVEMENT_CSV_COLUMNS.indexOf('lockType')]).toBe('');
    expect(row).toHaveLength(MOVEMENT_CSV_COLUMNS.length);
  });
});
