import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { apiRoute, done, success } from '../http/api-route.js';
import { requestLanguage } from '../http/request-language.js';
import { enforceLimits } from '../platform/limits.js';
import { callContact, invitableMeetings, inviteContact } from './calls.js';
import {
  addContact,
  deleteContact,
  exportContacts,
  importContacts,
  listContacts,
  restoreContact,
  updateContact,
} from './contact-service.js';

const IMPORTS_BY_ACCOUNT = { name: 'contact-import-account', limit: 20, windowSeconds: 3600 };

/** The form's fields in the database's names; a field that was not sent is left as it is. */
function contactFields(body: {
  name?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  company?: string | undefined;
  notes?: string | undefined;
  is_favourite?: boolean | undefined;
}) {
  const fields = {
    name: body.name,
    email: body.email,
    phone: body.phone,
    company: body.company,
    notes: body.notes,
    isFavourite: body.is_favourite,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<{
    name: string;
    email: string;
    phone: string;
    company: string;
    notes: string;
    isFavourite: boolean;
  }>;
}

export function registerContactRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'contacts';

  apiRoute(app, {
    name: 'get-contacts.php',
    tag,
    summary: "The caller's contacts: search, sort, favourites only, paginated",
    handler: async (body, { caller: { user }, t }) => {
      return success(t('contacts.list_ok'), await listContacts(context, user.id, body));
    },
  });

  apiRoute(app, {
    name: 'add-contact.php',
    tag,
    summary: 'Add a contact; an e-mail address already in the book answers 409',
    handler: async (body, { caller: { user }, t }) => {
      const contact = await addContact(context, user.id, { ...contactFields(body), name: body.name });
      return success(t('contacts.added', { name: contact.name }), contact);
    },
  });

  apiRoute(app, {
    name: 'update-contact.php',
    tag,
    summary: 'Change some fields of a contact (favourite included)',
    handler: async (body, { caller: { user }, t }) => {
      const contact = await updateContact(context, user.id, body.id, contactFields(body));
      return success(t('contacts.updated', { name: contact.name }), contact);
    },
  });

  apiRoute(app, {
    name: 'delete-contact.php',
    tag,
    summary: 'Delete a contact; restore-contact.php undoes it for 24 hours',
    handler: async (body, { caller: { user }, t }) => {
      await deleteContact(context, user.id, body.id);
      return done(t('contacts.deleted'));
    },
  });

  apiRoute(app, {
    name: 'restore-contact.php',
    tag,
    summary: 'Undo the deletion of a contact',
    handler: async (body, { caller: { user }, t }) => {
      const contact = await restoreContact(context, user.id, body.id);
      return success(t('contacts.restored', { name: contact.name }), contact);
    },
  });

  apiRoute(app, {
    name: 'import-contacts.php',
    tag,
    summary:
      'Import a CSV or vCard file (multipart field `file`); the answer reports every row: added, merged or skipped and why',
    handler: async (body, { request, caller: { user }, t }) => {
      await enforceLimits(context, [[IMPORTS_BY_ACCOUNT, String(user.id)]]);
      const report = await importContacts(context, user.id, body.file, requestLanguage(request));
      return success(
        t('contacts.imported', { added: report.added, merged: report.merged, skipped: report.skipped }),
        report,
      );
    },
  });

  apiRoute(app, {
    name: 'export-contacts.php',
    tag,
    summary: "The caller's contacts as a CSV file (in data.csv)",
    handler: async (_body, { caller: { user }, t }) => {
      const csv = await exportContacts(context, user.id);
      const day = new Date().toISOString().slice(0, 10);
      return success(t('contacts.exported'), {
        filename: `meetcast-contacts-${day}.csv`,
        content_type: 'text/csv' as const,
        csv,
      });
    },
  });

  apiRoute(app, {
    name: 'call-contact.php',
    tag,
    summary: "Call now: start an instant meeting with a contact's Meetcast user, who is notified with a join link",
    handler: async (body, { caller: { user }, t }) => {
      return success(t('contacts.call_started'), await callContact(context, user, body.id));
    },
  });

  apiRoute(app, {
    name: 'get-meetings-to-invite.php',
    tag,
    summary: 'The upcoming meetings the caller hosts, for "Invite to meeting"',
    handler: async (_body, { caller: { user }, t }) => {
      return success(t('contacts.meetings_ok'), { data: await invitableMeetings(context, user.id) });
    },
  });

  apiRoute(app, {
    name: 'invite-contact.php',
    tag,
    summary: 'Invite a contact to an upcoming meeting the caller hosts (e-mail, and in-app for Meetcast users)',
    handler: async (body, { caller: { user }, t }) => {
      await inviteContact(context, user, body.id, body.meeting_id);
      return done(t('contacts.invited'));
    },
  });
}
