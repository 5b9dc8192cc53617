import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { apiRoute, success } from '../http/api-route.js';
import { getBroadcastPlan, replaceBroadcastPlan } from './broadcast-plans.js';

/** A scheduled channel broadcast's go-live plan, shown and changed on My Channel (host or co-host). */
export function registerBroadcastPlanRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'streaming';

  apiRoute(app, {
    name: 'get-broadcast-plan.php',
    tag,
    summary: "A scheduled broadcast's go-live plan (destinations, recording), or null when it has none",
    handler: async (body, { caller: { user }, t }) => {
      const plan = await getBroadcastPlan(context, user, body.meetId);
      return success(t('broadcasts.plan_found'), { data: plan });
    },
  });

  apiRoute(app, {
    name: 'set-broadcast-plan.php',
    tag,
    summary:
      'Changes the go-live plan of a scheduled broadcast before it starts; no destination and record 0 removes it',
    handler: async (body, { caller: { user }, t }) => {
      const plan = await replaceBroadcastPlan(context, user, body.meetId, {
        destinations: body.destinations,
        record: body.record === 1,
      });
      const key = plan ? 'broadcasts.plan_saved' : 'broadcasts.plan_removed';
      return success(t(key), { data: plan });
    },
  });
}
