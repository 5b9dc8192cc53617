import { type AdminContactListInput, type AdminContactMessage } from '@meetcast/contracts';
import { and, contactMessages, count, eq, or, sql } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import {
  deleteContactMessage,
  setContactMessageStatus,
  type ContactMessageRow,
} from '../contact-us/contact-messages.js';
import type { AppContext } from '../context.js';
import { apiRoute, done, success } from '../http/api-route.js';
import { notFound } from '../http/app-error.js';
import { requestLanguage } from '../http/request-language.js';
import { translate } from '../i18n/messages.js';
import { actorOf, writeAudit } from './audit.js';
import { likePattern, ordered, pageHandler, searchedId, type Slice } from './list-query.js';
import { toEpochSeconds } from '../platform/time.js';

const SORT_COLUMNS = {
  id: contactMessages.id,
  name: sql`lower(${contactMessages.name})`,
  email: contactMessages.email,
  subject: sql`lower(${contactMessages.subject})`,
  status: contactMessages.status,
  created_at: contactMessages.createdAt,
} as const;

function toDto(row: ContactMessageRow): AdminContactMessage {
  return {
    id: row.id,
    user_id: row.userId,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    status: row.status,
    created_at: toEpochSeconds(row.createdAt),
  };
}

function contactFilter(input: AdminContactListInput) {
  const pattern = input.search ? likePattern(input.search) : undefined;
  const id = searchedId(input.search);
  return and(
    pattern
      ? or(
          sql`lower(${contactMessages.name}) like ${pattern}`,
          sql`lower(${contactMessages.email}) like ${pattern}`,
          sql`lower(${contactMessages.subject}) like ${pattern}`,
          sql`lower(${contactMessages.message}) like ${pattern}`,
          id ? eq(contactMessages.id, id) : undefined,
        )
      : undefined,
    input.status ? eq(contactMessages.status, input.status) : undefined,
  );
}

export async function listContactMessages(context: AppContext, input: AdminContactListInput, slice: Slice) {
  const where = contactFilter(input);
  const direction = input.direction ?? (input.sort ? 'asc' : 'desc');
  const [rows, [totalRow]] = await Promise.all([
    context.db
      .select()
      .from(contactMessages)
      .where(where)
      .orderBy(ordered(SORT_COLUMNS[input.sort ?? 'id'], direction), ordered(contactMessages.id, direction))
      .limit(slice.limit)
      .offset(slice.offset),
    context.db.select({ total: count() }).from(contactMessages).where(where),
  ]);
  return { rows: rows.map(toDto), total: totalRow?.total ?? 0 };
}

function quoted(text: string) {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

export function registerAdminContactRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'admin';

  apiRoute(app, {
    name: 'admin-get-contact-messages.php',
    tag,
    summary: 'The Contact Us messages; search, filter by status (new, read, answered), sort, page',
    handler: pageHandler((query, slice) => listContactMessages(context, query, slice)),
  });

  apiRoute(app, {
    name: 'admin-update-contact-message.php',
    tag,
    summary: 'Set the status of a Contact Us message: new, read or answered',
    handler: async (body, { request, caller: session, t }) => {
      const updated = await context.db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(contactMessages)
          .where(eq(contactMessages.id, body.id))
          .limit(1)
          .for('update');
        if (!row) throw notFound('admin.contact_not_found');
        if (row.status === body.status) return row;
        const changed = await setContactMessageStatus(tx, row.id, body.status);
        await writeAudit(tx, actorOf(session, request), [
          {
            action: 'contact_message.status_changed',
            targetType: 'contact_message',
            targetId: row.id,
            details: { from: row.status, to: body.status },
          },
        ]);
        return changed ?? row;
      });
      return success(t('admin.contact_updated'), { data: toDto(updated) });
    },
  });

  apiRoute(app, {
    name: 'admin-reply-contact-message.php',
    tag,
    summary: 'Answer a Contact Us message by e-mail; the message is marked answered',
    handler: async (body, { request, caller: session }) => {
      const language = requestLanguage(request);
      const [original] = await context.db
        .select()
        .from(contactMessages)
        .where(eq(contactMessages.id, body.id))
        .limit(1);
      if (!original) throw notFound('admin.contact_not_found');
      // One header line, whatever the texts carried.
      const subject = (body.subject || translate(language, 'admin.reply_subject', { subject: original.subject }))
        .replace(/\s+/g, ' ')
        .slice(0, 250);
      await context.mailer.send({
        to: original.email,
        subject,
        text: [
          body.message,
          '',
          translate(language, 'admin.reply_quote', { name: original.name }),
          quoted(original.message),
        ].join('\n'),
      });
      const answered = await context.db.transaction(async (tx) => {
        const row = await setContactMessageStatus(tx, original.id, 'answered');
        await writeAudit(tx, actorOf(session, request), [
          {
            action: 'contact_message.replied',
            targetType: 'contact_message',
            targetId: original.id,
            details: { to: original.email, subject },
          },
        ]);
        return row ?? original;
      });
      return success(translate(language, 'admin.contact_replied', { email: original.email }), {
        data: toDto(answered),
      });
    },
  });

  apiRoute(app, {
    name: 'admin-delete-contact-message.php',
    tag,
    summary: 'Delete a Contact Us message',
    handler: async (body, { request, caller: session, t }) => {
      await context.db.transaction(async (tx) => {
        const row = await deleteContactMessage(tx, body.id);
        if (!row) throw notFound('admin.contact_not_found');
        await writeAudit(tx, actorOf(session, request), [
          {
            action: 'contact_message.deleted',
            targetType: 'contact_message',
            targetId: row.id,
            details: { email: row.email, subject: row.subject },
          },
        ]);
      });
      return done(t('admin.contact_deleted'));
    },
  });
}
