import {
  AddContactInputSchema,
  type Contact,
  type ContactSort,
  type ImportReport,
  type ImportRow,
  type Language,
} from '@meetcast/contracts';
import {
  and,
  asc,
  contacts,
  count,
  desc,
  eq,
  ilike,
  isNotNull,
  isNull,
  isUniqueViolation,
  lt,
  or,
  sql,
  users,
} from '@meetcast/db';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import { badRequest, conflict, notFound } from '../http/app-error.js';
import { translate, type MessageKey } from '../i18n/messages.js';
import { ImportFileError, parseContactsFile } from './import-parsers.js';
import { toEpochSeconds } from '../platform/time.js';
import { containsPattern } from '../platform/text.js';
import { toCsv } from '../platform/csv.js';

type ContactRow = typeof contacts.$inferSelect;
type ContactFields = Partial<Pick<ContactRow, 'name' | 'email' | 'phone' | 'company' | 'notes' | 'isFavourite'>>;

// Deleted contacts wait this long for "Undo" before they are removed for good.
const UNDO_WINDOW_MS = 24 * 3600 * 1000;

/** The Meetcast account behind a contact's address: confirmed and not disabled. */
const matchingUser = and(eq(users.email, contacts.email), isNotNull(users.emailVerifiedAt), isNull(users.disabledAt));

const selection = {
  contact: contacts,
  user: { id: users.id, username: users.username, avatar: users.avatar },
};

function toContactDto(row: { contact: ContactRow; user: Contact['user'] }): Contact {
  const { contact } = row;
  return {
    id: contact.id,
    name: contact.name,
    email: contact.email,
    phone: contact.phone,
    company: contact.company,
    notes: contact.notes,
    is_favourite: contact.isFavourite,
    user: row.user?.id ? row.user : null,
    created_at: toEpochSeconds(contact.createdAt),
    updated_at: toEpochSeconds(contact.updatedAt),
  };
}

const SORT_COLUMNS = {
  name: sql`lower(${contacts.name})`,
  email: sql`lower(coalesce(${contacts.email}, ''))`,
  company: sql`lower(${contacts.company})`,
  created_at: contacts.createdAt,
  updated_at: contacts.updatedAt,
} satisfies Record<ContactSort, unknown>;

export async function listContacts(
  context: AppContext,
  ownerId: number,
  query: {
    search?: string | undefined;
    sort?: ContactSort | undefined;
    order?: 'asc' | 'desc' | undefined;
    favourites?: boolean | undefined;
    page?: number | undefined;
    per_page?: number | undefined;
  },
) {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? 20;
  const pattern = query.search ? containsPattern(query.search) : undefined;
  const where = and(
    eq(contacts.ownerId, ownerId),
    isNull(contacts.deletedAt),
    query.favourites ? eq(contacts.isFavourite, true) : undefined,
    pattern
      ? or(
          ilike(contacts.name, pattern),
          ilike(contacts.email, pattern),
          ilike(contacts.phone, pattern),
          ilike(contacts.company, pattern),
        )
      : undefined,
  );
  const direction = query.order === 'desc' ? desc : asc;
  const rows = await context.db
    .select(selection)
    .from(contacts)
    .leftJoin(users, matchingUser)
    .where(where)
    .orderBy(direction(SORT_COLUMNS[query.sort ?? 'name']), direction(contacts.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const [{ total } = { total: 0 }] = await context.db.select({ total: count() }).from(contacts).where(where);
  return { data: rows.map(toContactDto), total, page, per_page: perPage };
}

async function findContact(context: AppContext, ownerId: number, id: number, options: { deleted?: boolean } = {}) {
  const [row] = await context.db
    .select(selection)
    .from(contacts)
    .leftJoin(users, matchingUser)
    .where(
      and(
        eq(contacts.id, id),
        eq(contacts.ownerId, ownerId),
        options.deleted ? isNotNull(contacts.deletedAt) : isNull(contacts.deletedAt),
      ),
    )
    .limit(1);
  return row;
}

/** A contact of this owner, or 404 whether it does not exist or belongs to someone else. */
export async function requireContact(context: AppContext, ownerId: number, id: number) {
  const row = await findContact(context, ownerId, id);
  if (!row) throw notFound('contacts.not_found');
  return row;
}

async function contactDto(context: AppContext, ownerId: number, id: number) {
  return toContactDto(await requireContact(context, ownerId, id));
}

async function sameEmailContact(context: AppContext, ownerId: number, email: string) {
  const [row] = await context.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.ownerId, ownerId), eq(contacts.email, email)))
    .limit(1);
  return row;
}

/** Removes contacts whose undo window has passed, so their address can be used again. */
async function purgeDeleted(context: AppContext, ownerId: number) {
  await context.db
    .delete(contacts)
    .where(
      and(
        eq(contacts.ownerId, ownerId),
        isNotNull(contacts.deletedAt),
        lt(contacts.deletedAt, new Date(Date.now() - UNDO_WINDOW_MS)),
      ),
    );
}

/** An address already in the book: 409, unless it belongs to a deleted contact, which then goes for good. */
async function claimEmail(context: AppContext, ownerId: number, email: string | null, exceptId?: number) {
  if (!email) return;
  const existing = await sameEmailContact(context, ownerId, email);
  if (!existing || existing.id === exceptId) return;
  if (!existing.deletedAt) throw conflict('contacts.email_exists', { name: existing.name });
  await context.db.delete(contacts).where(eq(contacts.id, existing.id));
}

export async function addContact(context: AppContext, ownerId: number, fields: ContactFields & { name: string }) {
  const email = fields.email || null;
  await claimEmail(context, ownerId, email);
  const [row] = await context.db
    .insert(contacts)
    .values({ ...fields, email, ownerId })
    .returning({ id: contacts.id })
    .catch(async (error: unknown) => {
      // The same address added twice at once: the second is answered as if it had come later.
      if (!isUniqueViolation(error, 'contacts_owner_email_unique')) throw error;
      await claimEmail(context, ownerId, email);
      throw error;
    });
  if (!row) throw new Error('contact insert returned nothing');
  return contactDto(context, ownerId, row.id);
}

export async function updateContact(context: AppContext, ownerId: number, id: number, fields: ContactFields) {
  await requireContact(context, ownerId, id);
  const changes: ContactFields = { ...fields };
  if (fields.email !== undefined) {
    changes.email = fields.email || null;
    await claimEmail(context, ownerId, changes.email, id);
  }
  await context.db
    .update(contacts)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(contacts.id, id), eq(contacts.ownerId, ownerId)));
  return contactDto(context, ownerId, id);
}

export async function deleteContact(context: AppContext, ownerId: number, id: number) {
  await requireContact(context, ownerId, id);
  await context.db
    .update(contacts)
    .set({ deletedAt: new Date() })
    .where(and(eq(contacts.id, id), eq(contacts.ownerId, ownerId)));
  await purgeDeleted(context, ownerId);
}

export async function restoreContact(context: AppContext, ownerId: number, id: number) {
  const row = await findContact(context, ownerId, id, { deleted: true });
  if (!row) throw notFound('contacts.not_found');
  await context.db
    .update(contacts)
    .set({ deletedAt: null, updatedAt: new Date() })
    .where(and(eq(contacts.id, id), eq(contacts.ownerId, ownerId)));
  return contactDto(context, ownerId, id);
}

const IMPORT_LIMIT = 5000;

function skipReason(language: Language, issue: z.core.$ZodIssue | undefined): string {
  const field = String(issue?.path[0] ?? '');
  const key: MessageKey =
    field === 'email'
      ? 'contacts.import_bad_email'
      : field === 'name'
        ? issue?.code === 'too_small'
          ? 'contacts.import_no_name'
          : 'contacts.import_bad_name'
        : field === 'phone'
          ? 'contacts.import_bad_phone'
          : 'contacts.import_bad_field';
  return translate(language, key, { field });
}

/**
 * Imports a CSV or vCard file. Every row ends up added, merged (same e-mail as a contact already in
 * the book or earlier in the file: empty fields are filled in, nothing is doubled) or skipped with
 * its reason.
 */
export async function importContacts(
  context: AppContext,
  ownerId: number,
  bytes: Uint8Array | undefined,
  language: Language,
): Promise<ImportReport> {
  if (!bytes || bytes.length === 0) throw badRequest('contacts.import_file_required');
  let parsed;
  try {
    parsed = parseContactsFile(bytes);
  } catch (error) {
    if (error instanceof ImportFileError) throw badRequest(`contacts.import_${error.reason}`);
    throw error;
  }
  if (parsed.contacts.length + parsed.unreadable.length > IMPORT_LIMIT) {
    throw badRequest('contacts.import_too_many', { count: IMPORT_LIMIT });
  }
  const report: ImportRow[] = parsed.unreadable.map((row) => ({
    row: row.line,
    status: 'skipped',
    name: '',
    email: null,
    reason: translate(language, 'contacts.import_unreadable_row'),
  }));
  await purgeDeleted(context, ownerId);
  const existing = await context.db.select().from(contacts).where(eq(contacts.ownerId, ownerId));
  const byEmail = new Map(existing.filter((row) => row.email).map((row) => [row.email as string, row]));
  const seenInFile = new Map<string, number>();

  await context.db.transaction(async (tx) => {
    for (const { line, fields } of parsed.contacts) {
      const candidate = { ...fields, name: fields.name || fields.email };
      const checked = AddContactInputSchema.safeParse(candidate);
      if (!checked.success) {
        report.push({
          row: line,
          status: 'skipped',
          name: fields.name.slice(0, 120),
          email: fields.email.slice(0, 254) || null,
          reason: skipReason(language, checked.error.issues[0]),
        });
        continue;
      }
      const value = checked.data;
      const email = value.email || null;
      const values = {
        name: value.name,
        email,
        phone: value.phone ?? '',
        company: value.company ?? '',
        notes: value.notes ?? '',
        isFavourite: value.is_favourite ?? false,
      };
      const known = email ? byEmail.get(email) : undefined;
      if (known && !known.deletedAt) {
        const fill = {
          phone: known.phone || values.phone,
          company: known.company || values.company,
          notes: known.notes || values.notes,
          isFavourite: known.isFavourite || values.isFavourite,
        };
        const [merged] = await tx
          .update(contacts)
          .set({ ...fill, updatedAt: new Date() })
          .where(eq(contacts.id, known.id))
          .returning();
        if (merged) byEmail.set(merged.email as string, merged);
        const firstLine = email ? seenInFile.get(email) : undefined;
        report.push({
          row: line,
          status: 'merged',
          name: known.name,
          email,
          reason: translate(language, firstLine ? 'contacts.import_merged_row' : 'contacts.import_merged_existing', {
            row: firstLine ?? 0,
            name: known.name,
          }),
        });
        continue;
      }
      // A deleted contact with the same address is replaced by the imported one.
      if (known?.deletedAt) await tx.delete(contacts).where(eq(contacts.id, known.id));
      const [added] = await tx
        .insert(contacts)
        .values({ ...values, ownerId })
        .returning();
      if (added && email) {
        byEmail.set(email, added);
        seenInFile.set(email, line);
      }
      report.push({ row: line, status: 'added', name: values.name, email, reason: null });
    }
  });
  report.sort((a, b) => a.row - b.row);
  const tally = (status: ImportRow['status']) => report.filter((row) => row.status === status).length;
  return {
    format: parsed.format,
    added: tally('added'),
    merged: tally('merged'),
    skipped: tally('skipped'),
    rows: report,
  };
}

/** A spreadsheet cell that starts like a formula is prefixed so that opening the file runs nothing. */
export async function exportContacts(context: AppContext, ownerId: number) {
  const rows = await context.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.ownerId, ownerId), isNull(contacts.deletedAt)))
    .orderBy(asc(sql`lower(${contacts.name})`), asc(contacts.id));
  return toCsv(
    ['Name', 'E-mail', 'Phone', 'Company', 'Notes', 'Favourite'],
    rows.map((row) => [row.name, row.email, row.phone, row.company, row.notes, row.isFavourite ? 'yes' : '']),
  );
}
