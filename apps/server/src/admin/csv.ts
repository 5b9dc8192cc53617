/** One CSV cell: quoted when needed; text that a spreadsheet would run as a formula is defused. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text =
    value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 text with a byte-order mark so spreadsheet programs read UTF-8 names correctly. */
export function toCsv(header: string[], rows: unknown[][]): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Epoch seconds as an ISO 8601 UTC time (empty when absent). */
export function isoTime(seconds: number | null | undefined): string {
  return seconds === null || seconds === undefined ? '' : new Date(seconds * 1000).toISOString();
}
