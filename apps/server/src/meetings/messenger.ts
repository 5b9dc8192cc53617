import { FALLBACK_LANGUAGE, isLanguage, type Language, PASSWORD_FLAG } from '@meetcast/contracts';
import { eq, inArray, meetingExceptions, users, type UserRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { translate, type MessageKey, type MessageParams } from '../i18n/messages.js';
import { joinUrl, meetingInvitationIcs, type IcsMeeting } from './ics.js';
import type { ResolvedInvitee } from './invitees.js';
import type { MeetingRow } from './meeting-store.js';
import { isRepeating } from './occurrences.js';
import { escapeHtml } from '../platform/text.js';
import { formatTime, formatWhen } from '../platform/time.js';

/** Whom a message goes to: an account (language, zone, in-app notifications) or a bare address. */
export interface Recipient {
  email: string;
  user: UserRow | undefined;
}

type MailKind = 'invite' | 'update' | 'cancel' | 'occurrence_cancel' | 'reminder';

const languageOf = (recipient: Recipient, fallback: Language): Language =>
  recipient.user && isLanguage(recipient.user.language) ? recipient.user.language : fallback;

/** Invitations, changes, cancellations and reminders: e-mail (with a calendar file) and in-app notifications. */
export class MeetingMessenger {
  constructor(private readonly context: AppContext) {}

  /** Looks up the accounts behind invitees (by id, else by address) so that they get notifications. */
  async recipients(invitees: ResolvedInvitee[]): Promise<Recipient[]> {
    if (invitees.length === 0) return [];
    const ids = invitees.map((invitee) => invitee.userId).filter((id): id is number => id !== null);
    const emails = invitees.map((invitee) => invitee.email);
    const byId = ids.length ? await this.context.db.select().from(users).where(inArray(users.id, ids)) : [];
    const byEmail = await this.context.db.select().from(users).where(inArray(users.email, emails));
    return invitees.map((invitee) => {
      const user =
        byId.find((row) => row.id === invitee.userId) ??
        byEmail.find((row) => row.email.toLowerCase() === invitee.email);
      return { email: invitee.email, user: user && !user.disabledAt ? user : undefined };
    });
  }

  async sendToInvitees(
    kind: Exclude<MailKind, 'reminder'>,
    row: MeetingRow,
    host: UserRow,
    invitees: ResolvedInvitee[],
    occurrenceStart?: Date,
  ) {
    const recipients = await this.recipients(invitees);
    if (recipients.length === 0) return;
    const ics = await this.icsMeeting(row, host, invitees);
    const calendarFile =
      kind === 'cancel'
        ? meetingInvitationIcs(this.context.config.publicUrl, ics, 'CANCEL')
        : meetingInvitationIcs(this.context.config.publicUrl, ics, 'REQUEST');
    const hostLanguage = isLanguage(host.language) ? host.language : FALLBACK_LANGUAGE;
    await Promise.all(
      recipients.map((recipient) =>
        this.deliver(kind, row, host.username, recipient, languageOf(recipient, hostLanguage), {
          calendarFile,
          when: occurrenceStart ?? row.startTime,
        }),
      ),
    );
  }

  /** One reminder to one person for one occurrence. */
  async remind(row: MeetingRow, hostName: string, recipient: Recipient, occurrenceStart: Date, minutes: number) {
    const language = languageOf(recipient, FALLBACK_LANGUAGE);
    await this.deliver('reminder', row, hostName, recipient, language, { when: occurrenceStart, minutes });
  }

  private async icsMeeting(row: MeetingRow, host: UserRow, invitees: ResolvedInvitee[]): Promise<IcsMeeting> {
    const exceptions = await this.context.db
      .select({ start: meetingExceptions.occurrenceStart })
      .from(meetingExceptions)
      .where(eq(meetingExceptions.meetingId, row.id));
    return {
      row,
      hostName: host.username,
      hostEmail: host.email,
      cancelled: exceptions.map((exception) => exception.start.getTime()),
      invitees: invitees.map((invitee) => invitee.email),
    };
  }

  private async deliver(
    kind: MailKind,
    row: MeetingRow,
    hostName: string,
    recipient: Recipient,
    language: Language,
    details: { calendarFile?: string; when: Date; minutes?: number },
  ) {
    const t = (key: MessageKey, params?: MessageParams) => translate(language, key, params);
    const zone = recipient.user?.timeZone ?? row.timeZone;
    const url = joinUrl(this.context.config.publicUrl, row);
    const when = formatWhen(details.when, zone, language);
    const params = { host: hostName, name: row.name, when, count: details.minutes ?? 0 };
    const subjects: Record<MailKind, string> = {
      invite: t('meetings.mail_invite_subject', params),
      update: t('meetings.mail_update_subject', params),
      cancel: t('meetings.mail_cancel_subject', params),
      occurrence_cancel: t('meetings.mail_occurrence_cancel_subject', params),
      reminder: t('meetings.mail_reminder_subject', { ...params, time: formatTime(details.when, zone, language) }),
    };
    const intros: Record<MailKind, string> = {
      invite: t('meetings.mail_invite_intro', params),
      update: t('meetings.mail_update_intro', params),
      cancel: t('meetings.mail_cancel_intro', params),
      occurrence_cancel: t('meetings.mail_occurrence_cancel_intro', params),
      reminder: t('meetings.mail_reminder_intro', params),
    };
    const isCancellation = kind === 'cancel' || kind === 'occurrence_cancel';
    const lines = [
      t('mail.greeting', { name: recipient.user?.username ?? recipient.email }),
      '',
      intros[kind],
      '',
      ...(isCancellation
        ? []
        : [
            t('meetings.mail_when', { when }),
            ...(isRepeating(row.repeat)
              ? [t('meetings.mail_repeat', { repeat: t(`meetings.repeat_${row.repeat}` as MessageKey) })]
              : []),
            t('meetings.mail_join', { url }),
            ...(row.isPassword === PASSWORD_FLAG.yes && row.passwordPlain
              ? [t('meetings.mail_password', { password: row.passwordPlain })]
              : []),
            ...(row.description ? [t('meetings.mail_description', { description: row.description })] : []),
          ]),
      ...(details.calendarFile ? ['', t('meetings.mail_calendar')] : []),
      '',
      t('mail.signoff'),
    ];
    const mail = this.context.mailer.send({
      to: recipient.email,
      subject: subjects[kind],
      text: lines.join('\n'),
      attachments: details.calendarFile
        ? [
            {
              filename: `${row.slug}.ics`,
              content: details.calendarFile,
              contentType: `text/calendar; charset=utf-8; method=${kind === 'cancel' ? 'CANCEL' : 'REQUEST'}`,
            },
          ]
        : undefined,
    });
    const notification = recipient.user ? this.notify(kind, recipient.user.id, t, params, url) : undefined;
    const results = await Promise.allSettled([mail, notification]);
    for (const result of results) {
      if (result.status === 'rejected') {
        this.context.log.warn({ err: result.reason, meetingId: row.id, kind }, 'meeting message not delivered');
      }
    }
  }

  private notify(
    kind: MailKind,
    userId: number,
    t: (key: MessageKey, params?: MessageParams) => string,
    params: { host: string; name: string; when: string; count: number },
    url: string,
  ) {
    // Everything a person typed is escaped before it becomes notification HTML.
    const safe = {
      host: escapeHtml(params.host),
      name: escapeHtml(params.name),
      when: escapeHtml(params.when),
      count: params.count,
      url: escapeHtml(url),
    };
    const keys: Record<MailKind, MessageKey> = {
      invite: 'meetings.notify_invite',
      update: 'meetings.notify_update',
      cancel: 'meetings.notify_cancel',
      occurrence_cancel: 'meetings.notify_occurrence_cancel',
      reminder: 'meetings.notify_reminder',
    };
    return this.context.notifier.notify(userId, t(keys[kind], safe));
  }
}
