import { and, gt, inArray, isNull, lte, meetings, ne, or, sentReminders, sql, users } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { listInvitees } from './invitees.js';
import { MeetingDetails } from './meeting-store.js';
import type { MeetingMessenger, Recipient } from './messenger.js';
import { runPeriodically, type PeriodicJob } from '../platform/periodic.js';

/** Nobody is reminded more than a week ahead, whatever their profile says. */
export const MAX_REMINDER_MINUTES = 7 * 24 * 60;

const recipientKey = (recipient: Recipient) =>
  recipient.user ? `user:${recipient.user.id}` : `email:${recipient.email.toLowerCase()}`;

/**
 * Sends each person a reminder `reminder_minutes` before each occurrence of their meetings.
 * Every server process runs one; a row in `sent_reminders` (unique per meeting, occurrence and
 * recipient) is claimed with INSERT … ON CONFLICT DO NOTHING before anything is sent, so a
 * reminder goes out once even with several processes, and a restart picks up what is still due.
 */
export class ReminderScheduler {
  private job: PeriodicJob | undefined;

  constructor(
    private readonly context: AppContext,
    private readonly messenger: MeetingMessenger,
  ) {}

  start(intervalSeconds: number) {
    if (intervalSeconds <= 0 || this.job) return;
    this.job = runPeriodically(() => this.runOnce(), {
      everyMs: intervalSeconds * 1000,
      onError: (error) => this.context.log.error({ err: error }, 'reminder run failed'),
    });
  }

  async stop() {
    const job = this.job;
    this.job = undefined;
    await job?.stop();
  }

  /** One pass: sends every reminder that is due and not yet claimed; answers how many this process sent. */
  async runOnce(now = new Date()): Promise<number> {
    const { db } = this.context;
    const [longest] = await db
      .select({ minutes: sql<number | null>`max(${users.reminderMinutes})` })
      .from(users)
      .where(isNull(users.disabledAt));
    const lead = Math.min(Math.max(Number(longest?.minutes ?? 0), 0), MAX_REMINDER_MINUTES);
    if (lead <= 0) return 0;
    const windowEnd = new Date(now.getTime() + lead * 60_000);
    const rows = await db
      .select()
      .from(meetings)
      .where(
        and(
          isNull(meetings.cancelledAt),
          lte(meetings.startTime, windowEnd),
          or(ne(meetings.repeat, 0), and(gt(meetings.startTime, now), ne(meetings.state, 'ended'))),
        ),
      );
    if (rows.length === 0) return 0;
    const details = await MeetingDetails.load(db, { id: 0, email: '' }, rows);
    const hosts = await db
      .select()
      .from(users)
      .where(inArray(users.id, [...new Set(rows.map((row) => row.hostId))]));
    let sent = 0;
    for (const row of rows) {
      const occurrences = details.occurrences(row, now, windowEnd).filter((occurrence) => occurrence.start > now);
      const host = hosts.find((candidate) => candidate.id === row.hostId);
      if (occurrences.length === 0 || !host) continue;
      const recipients: Recipient[] = [
        ...(host.disabledAt ? [] : [{ email: host.email, user: host }]),
        ...(await this.messenger.recipients(await listInvitees(db, row.id))),
      ];
      for (const occurrence of occurrences) {
        for (const recipient of recipients) {
          const minutes = Math.min(recipient.user?.reminderMinutes ?? host.reminderMinutes, MAX_REMINDER_MINUTES);
          if (minutes <= 0 || now.getTime() < occurrence.start.getTime() - minutes * 60_000) continue;
          const claimed = await db
            .insert(sentReminders)
            .values({ meetingId: row.id, occurrenceStart: occurrence.start, recipient: recipientKey(recipient) })
            .onConflictDoNothing()
            .returning({ id: sentReminders.id });
          if (claimed.length === 0) continue;
          const minutesLeft = Math.max(1, Math.ceil((occurrence.start.getTime() - now.getTime()) / 60_000));
          await this.messenger.remind(row, host.username, recipient, occurrence.start, minutesLeft);
          sent += 1;
        }
      }
    }
    return sent;
  }
}
