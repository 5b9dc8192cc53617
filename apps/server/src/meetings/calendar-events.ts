import { and, calendarEvents, eq } from '@meetcast/db';
import type { Executor } from '../meeting-records/meeting-repository.js';

/**
 * Deletes a personal calendar event: the owner's own (`ownerId`), or any (an administrator, inside
 * their audited transaction). The calendar owns `calendar_events` (ADR 013); returns the row, or nothing.
 */
export async function deleteCalendarEvent(db: Executor, id: number, ownerId?: number) {
  const [row] = await db
    .delete(calendarEvents)
    .where(
      ownerId === undefined
        ? eq(calendarEvents.id, id)
        : and(eq(calendarEvents.id, id), eq(calendarEvents.userId, ownerId)),
    )
    .returning();
  return row;
}
