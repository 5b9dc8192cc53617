import type { AdminExportTable } from '@meetcast/contracts';
import type { AppContext } from '../context.js';
import { listUsers } from './admin-users.js';
import { listAudit } from './audit.js';
import { listChannels } from './channel-routes.js';
import { listContactMessages } from './contact-routes.js';
import { toCsv } from '../platform/csv.js';
import { isoTime } from '../platform/time.js';
import { EVENTS_LIMIT, listEvents } from './event-routes.js';
import { EXPORT_LIMIT } from './list-query.js';
import { listMeetings } from './meeting-routes.js';

export interface ExportRequest {
  table: AdminExportTable;
  search?: string | undefined;
  start?: number | undefined;
  end?: number | undefined;
}

const all = { limit: EXPORT_LIMIT, offset: 0 };

function currentMonth(now = new Date()) {
  return {
    start: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000,
    end: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000,
  };
}

/** Every row of a table that matches the search, as CSV; column names are the API's field names. */
export async function exportTable(context: AppContext, request: ExportRequest): Promise<{ csv: string; rows: number }> {
  const search = request.search;
  switch (request.table) {
    case 'users': {
      const { rows } = await listUsers(context, { search, sort: 'id', direction: 'asc' }, all);
      return {
        rows: rows.length,
        csv: toCsv(
          ['id', 'username', 'email', 'role_id', 'status', 'meetings_count', 'created_at', 'disabled_at'],
          rows.map((u) => [
            u.id,
            u.username,
            u.email,
            u.role_id,
            u.status,
            u.meetings_count,
            isoTime(u.created_at),
            isoTime(u.disabled_at),
          ]),
        ),
      };
    }
    case 'meetings': {
      const { rows } = await listMeetings(context, { search, sort: 'id', direction: 'asc' }, all);
      return {
        rows: rows.length,
        csv: toCsv(
          [
            'id',
            'name',
            'url_slug',
            'host_id',
            'host_username',
            'host_email',
            'is_schedule',
            'is_private',
            'is_password',
            'repeat',
            'start_time',
            'end_time',
            'state',
            'participants',
            'created_at',
          ],
          rows.map((m) => [
            m.id,
            m.name,
            m.url_slug,
            m.host.id,
            m.host.username,
            m.host.email,
            m.is_schedule,
            m.is_private,
            m.is_password,
            m.repeat,
            isoTime(m.start_time),
            isoTime(m.end_time),
            m.state,
            m.participants,
            isoTime(m.created_at),
          ]),
        ),
      };
    }
    case 'channels': {
      const { rows } = await listChannels(context, { search, sort: 'id', direction: 'asc' }, all);
      return {
        rows: rows.length,
        csv: toCsv(
          [
            'id',
            'name',
            'slug',
            'owner_id',
            'owner_username',
            'owner_email',
            'visibility',
            'is_hidden',
            'followers',
            'created_at',
          ],
          rows.map((c) => [
            c.id,
            c.name,
            c.slug,
            c.owner.id,
            c.owner.username,
            c.owner.email,
            c.visibility,
            c.is_hidden,
            c.followers,
            isoTime(c.created_at),
          ]),
        ),
      };
    }
    case 'contact_messages': {
      const { rows } = await listContactMessages(context, { search, sort: 'id', direction: 'asc' }, all);
      return {
        rows: rows.length,
        csv: toCsv(
          ['id', 'name', 'email', 'subject', 'message', 'status', 'user_id', 'created_at'],
          rows.map((c) => [c.id, c.name, c.email, c.subject, c.message, c.status, c.user_id, isoTime(c.created_at)]),
        ),
      };
    }
    case 'events': {
      const month = currentMonth();
      const { rows } = await listEvents(
        context,
        { start: request.start ?? month.start, end: request.end ?? month.end, search },
        EVENTS_LIMIT,
      );
      return {
        rows: rows.length,
        csv: toCsv(
          [
            'kind',
            'id',
            'title',
            'start_time',
            'end_time',
            'is_all_day',
            'owner_id',
            'owner_username',
            'owner_email',
            'repeat',
            'url_slug',
          ],
          rows.map((e) => [
            e.kind,
            e.id,
            e.title,
            isoTime(e.start_time),
            isoTime(e.end_time),
            e.is_all_day,
            e.owner.id,
            e.owner.username,
            e.owner.email,
            e.repeat,
            e.url_slug,
          ]),
        ),
      };
    }
    case 'audit_log': {
      const { rows } = await listAudit(context, { search, ...all });
      return {
        rows: rows.length,
        csv: toCsv(
          [
            'id',
            'created_at',
            'actor_id',
            'actor_email',
            'action',
            'target_type',
            'target_id',
            'ip_address',
            'details',
          ],
          rows.map((a) => [
            a.id,
            isoTime(a.created_at),
            a.actor?.id,
            a.actor?.email,
            a.action,
            a.target_type,
            a.target_id,
            a.ip_address,
            a.details,
          ]),
        ),
      };
    }
  }
}
