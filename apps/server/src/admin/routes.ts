import { ErrorBodySchema, fileCalls, type AdminExportTable } from '@meetcast/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { requireAdmin } from '../accounts/authenticate.js';
import type { AppContext } from '../context.js';
import { apiRoute, securityOf, success } from '../http/api-route.js';
import { actorOf, listAudit, writeAudit } from './audit.js';
import { registerAdminChannelRoutes } from './channel-routes.js';
import { registerAdminContactRoutes } from './contact-routes.js';
import { loadDashboard } from './dashboard.js';
import { registerAdminEventRoutes } from './event-routes.js';
import { exportTable } from './export.js';
import { pageSlice } from './list-query.js';
import { registerAdminMeetingRoutes } from './meeting-routes.js';
import { registerAdminUserRoutes } from './user-routes.js';

/** The administration area: every call checks the administrator role on the server. */
export function registerAdminRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'admin';

  apiRoute(app, {
    name: 'admin-dashboard.php',
    tag,
    summary: 'Figures, 12-week charts, live meetings with participant counts and the latest audit entries',
    handler: async (_body, { t }) => {
      return success(t('admin.list_ok'), { data: await loadDashboard(context) });
    },
  });

  apiRoute(app, {
    name: 'admin-get-audit-log.php',
    tag,
    summary: 'The audit log of administrator actions, newest first (read-only: no call edits it)',
    handler: async (body, { t }) => {
      const { page, perPage, slice } = pageSlice(body);
      const { rows, total } = await listAudit(context, { search: body.search, ...slice });
      return success(t('admin.list_ok'), {
        data: rows,
        total,
        page,
        per_page: perPage,
      });
    },
  });

  registerAdminUserRoutes(app, context);
  registerAdminMeetingRoutes(app, context);
  registerAdminChannelRoutes(app, context);
  registerAdminContactRoutes(app, context);
  registerAdminEventRoutes(app, context);

  // The one call that answers text/csv instead of JSON; errors keep the JSON shape.
  const exportCall = fileCalls.adminExport;
  app.post(
    `/api/${exportCall.name}`,
    {
      schema: {
        tags: [tag],
        summary: 'CSV export of a whole table (users, meetings, channels, contact_messages, events, audit_log)',
        security: securityOf(exportCall.auth),
        body: exportCall.input,
        response: {
          200: exportCall.output,
          '4xx': ErrorBodySchema,
          '5xx': ErrorBodySchema,
        },
      },
      // The token before the fields, as for every other call (apiRoute).
      preValidation: (request) => requireAdmin(context, request),
    },
    async (request: FastifyRequest, reply) => {
      const body = request.body as z.infer<typeof exportCall.input>;
      const session = await requireAdmin(context, request);
      const { csv, rows } = await exportTable(context, body);
      await writeAudit(context.db, actorOf(session, request), [
        {
          action: 'export',
          targetType: body.table,
          details: { rows, ...(body.search ? { search: body.search } : {}) },
        },
      ]);
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="meetcast-${fileName(body.table)}-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
}

function fileName(table: AdminExportTable) {
  return table.replace(/_/g, '-');
}
