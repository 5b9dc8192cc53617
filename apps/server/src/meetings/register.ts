import type { FastifyInstance } from 'fastify';
import { closeWithin } from '../platform/close-within.js';
import type { AppContext } from '../context.js';
import { registerCalendarRoutes } from './calendar-routes.js';
import { registerMeetingListRoutes } from './list-routes.js';
import { MeetingMessenger } from './messenger.js';
import { ReminderScheduler } from './reminders.js';
import { registerMeetingRoutes } from './routes.js';

/** Meetings, their lists and the dashboard, the calendar, and the reminder scheduler of this process. */
export function registerMeetings(app: FastifyInstance, context: AppContext) {
  registerMeetingRoutes(app, context);
  registerMeetingListRoutes(app, context);
  registerCalendarRoutes(app, context);
  const reminders = new ReminderScheduler(context, new MeetingMessenger(context));
  app.addHook('onReady', async () => reminders.start(context.config.reminderIntervalSeconds));
  app.addHook('onClose', () => closeWithin(app.log, 'reminders', () => reminders.stop()));
  return reminders;
}
