import { parse as parseCsv } from 'csv-parse/sync';
import ICAL from 'ical.js';

/** One contact as read from a file, before validation; `line` is where the user can find it. */
export interface ParsedContact {
  line: number;
  fields: { name: string; email: string; phone: string; company: string; notes: string; is_favourite: boolean };
}

/** A row or card that could not be read at all. */
export interface UnreadableRow {
  line: number;
  problem: string;
}

export interface ParsedFile {
  format: 'csv' | 'vcard';
  contacts: ParsedContact[];
  unreadable: UnreadableRow[];
}

export class ImportFileError extends Error {
  constructor(readonly reason: 'empty' | 'no_columns' | 'unreadable') {
    super(reason);
  }
}

const HEADERS: Record<string, string[]> = {
  name: ['name', 'fullname', 'displayname', 'contactname', 'contact', 'nom', 'nombre'],
  first: ['firstname', 'givenname', 'first', 'forename'],
  middle: ['middlename', 'additionalname'],
  last: ['lastname', 'familyname', 'surname', 'last'],
  email: ['email', 'emailaddress', 'mail', 'email1value', 'emailaddress1', 'primaryemail', 'email1', 'workemail'],
  phone: [
    'phone',
    'phonenumber',
    'mobile',
    'mobilephone',
    'telephone',
    'tel',
    'phone1value',
    'primaryphone',
    'businessphone',
    'homephone',
    'cell',
    'cellphone',
  ],
  company: ['company', 'organization', 'organisation', 'organizationname', 'organization1name', 'org', 'employer'],
  notes: ['notes', 'note', 'comments', 'comment', 'description'],
  favourite: ['favourite', 'favorite', 'starred', 'isfavourite', 'isfavorite'],
};

const normalizeHeader = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

function columnFor(header: string): string | undefined {
  const key = normalizeHeader(header);
  return Object.entries(HEADERS).find(([, names]) => names.includes(key))?.[0];
}

const isTruthy = (value: string) => /^(1|true|yes|y|x|\*)$/i.test(value.trim());

function guessDelimiter(text: string) {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, firstLine.split(delimiter).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

export function parseCsvContacts(text: string): ParsedFile {
  const delimiter = guessDelimiter(text);
  const unreadable: UnreadableRow[] = [];
  let columns: (string | undefined)[] = [];
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // One kind of line break, so that csv-parse counts lines right inside quoted values too.
    records = parseCsv(text.replace(/\r\n?/g, '\n'), {
      bom: true,
      delimiter,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      // A stray quote inside a value is kept as a character instead of swallowing the lines after it.
      relax_quotes: true,
      on_skip: (error: { lines?: number; message: string } | undefined) => {
        if (error) unreadable.push({ line: error.lines ?? 0, problem: error.message });
      },
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch {
    throw new ImportFileError('unreadable');
  }
  const [header, ...rows] = records;
  if (!header) throw new ImportFileError('empty');
  columns = header.record.map(columnFor);
  if (!columns.some((column) => column === 'name' || column === 'first' || column === 'last' || column === 'email')) {
    throw new ImportFileError('no_columns');
  }
  const contacts = rows.map(({ record, info }) => {
    const value = (column: string) =>
      columns.map((name, index) => (name === column ? (record[index] ?? '').trim() : '')).find((cell) => cell !== '') ??
      '';
    const composed = [value('first'), value('middle'), value('last')].filter(Boolean).join(' ');
    // csv-parse counts the line a record ends on; a value spanning lines moves its start up.
    const breaks = record.reduce((total, cell) => total + (cell.match(/\n/g)?.length ?? 0), 0);
    return {
      line: info.lines - breaks,
      fields: {
        name: value('name') || composed,
        email: value('email'),
        phone: value('phone'),
        company: value('company'),
        notes: value('notes'),
        is_favourite: isTruthy(value('favourite')),
      },
    };
  });
  return { format: 'csv', contacts, unreadable };
}

function decodeQuotedPrintable(value: string) {
  const bytes = value
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'binary').toString('utf8');
}

/**
 * vCard 2.1 (still written by many phones) has bare parameters (`EMAIL;PREF;INTERNET:`) and
 * quoted-printable values that the RFC 6350 parser refuses; they are rewritten to 3.0 syntax.
 */
function upgradeVcard21(card: string) {
  const unfolded = card.replace(/=\r?\n/g, '=\uE000').replace(/\r?\n[ \t]/g, '');
  return unfolded
    .split(/\r?\n/)
    .map((line) => {
      const colon = line.indexOf(':');
      if (colon < 0) return line;
      const [property = '', ...params] = line.slice(0, colon).split(';');
      let value = line.slice(colon + 1).replace(/=\uE000/g, '=\n');
      const kept: string[] = [];
      for (const param of params) {
        if (/^encoding=quoted-printable$/i.test(param) || /^quoted-printable$/i.test(param)) {
          value = decodeQuotedPrintable(value);
        } else if (/^charset=/i.test(param)) {
          continue;
        } else kept.push(param.includes('=') ? param : `TYPE=${param}`);
      }
      return [property, ...kept].join(';') + ':' + value.replace(/\n/g, '\\n');
    })
    .join('\r\n');
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).filter(Boolean).join(' ');
  return value === null || value === undefined ? '' : String(value);
}

export function parseVcardContacts(text: string): ParsedFile {
  const contacts: ParsedContact[] = [];
  const unreadable: UnreadableRow[] = [];
  const cards = text.replace(/^\uFEFF/, '').match(/BEGIN:VCARD[\s\S]*?END:VCARD/gi) ?? [];
  if (cards.length === 0) throw new ImportFileError('empty');
  cards.forEach((card, index) => {
    const line = index + 1;
    try {
      const source = /VERSION:2\.1/i.test(card) ? upgradeVcard21(card) : card;
      const component = new ICAL.Component(ICAL.parse(source) as unknown[]);
      const n = component.getFirstPropertyValue('n') as unknown;
      const nameParts = Array.isArray(n) ? [n[3], n[1], n[2], n[0], n[4]].map(textOf).filter(Boolean) : [];
      const org = component.getFirstPropertyValue('org') as unknown;
      const categories = component.getAllProperties('categories').flatMap((p) => p.getValues().map(textOf));
      contacts.push({
        line,
        fields: {
          name: textOf(component.getFirstPropertyValue('fn')).trim() || nameParts.join(' '),
          email: textOf(component.getFirstPropertyValue('email')).replace(/^mailto:/i, ''),
          phone: textOf(component.getFirstPropertyValue('tel')).replace(/^tel:/i, ''),
          company: Array.isArray(org) ? textOf(org[0]) : textOf(org),
          notes: textOf(component.getFirstPropertyValue('note')),
          is_favourite: categories.some((category) => /^(starred|favou?rites?)$/i.test(category)),
        },
      });
    } catch (error) {
      unreadable.push({ line, problem: error instanceof Error ? error.message.slice(0, 200) : 'unreadable' });
    }
  });
  return { format: 'vcard', contacts, unreadable };
}

/** Reads a CSV or vCard file; which one it is comes from its content, not its name. */
export function parseContactsFile(bytes: Uint8Array): ParsedFile {
  const text = Buffer.from(bytes).toString('utf8');
  if (text.includes(String.fromCharCode(0))) throw new ImportFileError('unreadable');
  if (text.trim() === '') throw new ImportFileError('empty');
  return /^\s*BEGIN:VCARD/i.test(text.replace(/^\uFEFF/, '')) ? parseVcardContacts(text) : parseCsvContacts(text);
}
