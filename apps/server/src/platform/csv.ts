import { stringify } from 'csv-stringify/sync';

/** A phone number (`+1 555 0111`, `-`) starts like a formula but is data. */
const PHONE_NUMBER = /^\+?[0-9 ().-]+$/;
/** What a spreadsheet would run as a formula when a cell starts with it. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One value as cell text; text that a spreadsheet would run as a formula is defused with a `'`. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  return typeof value === 'string' && FORMULA_START.test(text) && !PHONE_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * RFC 4180 text (CRLF between records, quoted where needed) with a byte-order mark, so that
 * spreadsheet programs read UTF-8 names correctly.
 */
export function toCsv(header: string[], rows: unknown[][]): string {
  return stringify(
    rows.map((row) => row.map(cellText)),
    { header: true, columns: header, bom: true, record_delimiter: 'windows' },
  );
}
