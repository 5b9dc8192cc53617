import { and, channelFollowers, channels, eq, isNull, meetings, users } from '@meetcast/db';
import type { AccountsContext } from '../accounts/accounts-context.js';
import { claimBroadcastReminders } from './broadcast-reminder-claims.js';
import type { Notifier } from './notifier.js';
import { languageOf, translate } from '../i18n/messages.js';
import { escapeHtml } from '../platform/text.js';
import { formatWhen } from '../platform/time.js';

/**
 * Tells every follower of a meeting's channel that a broadcast was scheduled or has started, in
 * their own language and time zone, with a link to the public broadcast page: a live notification,
 * and for a start also an e-mail (people follow a channel so as not to miss it going live). The
 * channels feature calls this when a broadcast is scheduled, the streaming feature when one goes live.
 * Going live also tells, once, the people who asked for it with "notify me" (ADR 048); someone who
 * both follows and asked hears of it once. Answers how many people were told.
 */
export async function notifyChannelFollowers(
  context: AccountsContext & { notifier: Notifier },
  meetingId: number,
  event: 'scheduled' | 'live',
) {
  const [found] = await context.db
    .select({ meeting: meetings, channel: channels })
    .from(meetings)
    .innerJoin(channels, eq(channels.id, meetings.channelId))
    .where(and(eq(meetings.id, meetingId), isNull(channels.hiddenAt)))
    .limit(1);
  if (!found) return 0;
  const followers = await context.db
    .select({ id: users.id, email: users.email, language: users.language, timeZone: users.timeZone })
    .from(channelFollowers)
    .innerJoin(users, eq(users.id, channelFollowers.userId))
    .where(and(eq(channelFollowers.channelId, found.channel.id), isNull(users.disabledAt)));
  const reminded = event === 'live' ? await claimBroadcastReminders(context.db, meetingId) : [];
  const followerIds = new Set(followers.map((follower) => follower.id));
  const recipients = [
    ...followers.map((person) => ({ ...person, asked: false })),
    ...reminded.filter((person) => !followerIds.has(person.id)).map((person) => ({ ...person, asked: true })),
  ];
  const url = `${context.config.publicUrl}/channel/${encodeURIComponent(found.meeting.slug)}`;
  for (const follower of recipients) {
    const language = languageOf(follower);
    const names = { channel: found.channel.name, broadcast: found.meeting.name };
    const when = formatWhen(found.meeting.startTime, follower.timeZone, language);
    await context.notifier.notify(
      follower.id,
      translate(language, event === 'live' ? 'channels.live_notification' : 'channels.scheduled_notification', {
        channel: escapeHtml(names.channel),
        broadcast: escapeHtml(names.broadcast),
        when: escapeHtml(when),
        url: escapeHtml(url),
      }),
    );
    if (event !== 'live') continue;
    try {
      await context.mailer.send({
        to: follower.email,
        subject: translate(language, 'channels.live_mail_subject', names),
        text: translate(language, follower.asked ? 'channels.reminder_mail_text' : 'channels.live_mail_text', {
          ...names,
          url,
        }),
      });
    } catch (error) {
      // One unreachable mailbox must not keep the other followers from hearing of it.
      context.log.warn({ err: error }, 'could not e-mail a follower that a broadcast is live');
    }
  }
  return recipients.length;
}
