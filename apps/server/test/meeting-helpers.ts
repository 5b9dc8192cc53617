import type { Meeting, MeetingPage } from '@meetcast/contracts';
import nodeIcal from 'node-ical';
import type { ReceivedMail } from '@meetcast/testkit/mail-sink';
import type { Fields, SignedIn, TestServer } from './test-server.js';

let slugCounter = 0;
export const uniqueSlug = (prefix = 'meet') => `${prefix}-${process.pid}-${Date.now().toString(36)}-${slugCounter++}`;

export const nowSeconds = () => Math.floor(Date.now() / 1000);
export const HOUR = 3600;
export const DAY = 86_400;

/** The fields the Schedule a meeting dialog sends, for a valid public meeting tomorrow. */
export function meetingFields(overrides: Fields = {}): Fields {
  const start = typeof overrides.start_time === 'number' ? overrides.start_time : nowSeconds() + DAY;
  return {
    name: 'Team sync',
    is_schedule: 1,
    start_time: start,
    end_time: start + HOUR,
    is_private: 2,
    password: '',
    is_password: 2,
    slug: uniqueSlug(),
    repeat: 0,
    ...overrides,
  };
}

export async function addMeeting(server: TestServer, who: SignedIn, overrides: Fields = {}): Promise<Meeting> {
  const answer = await server.post<Meeting>('add-meeting.php', { token: who.token, ...meetingFields(overrides) });
  if (answer.httpStatus !== 200 || !answer.body.data) {
    throw new Error(`add-meeting failed: ${answer.httpStatus} ${answer.body.message}`);
  }
  return answer.body.data;
}

export async function upcoming(server: TestServer, who: SignedIn, fields: Fields = {}): Promise<MeetingPage> {
  const answer = await server.post<MeetingPage>('get-upcoming-meetings.php', {
    token: who.token,
    per_page: 100,
    ...fields,
  });
  if (!answer.body.data) throw new Error(`upcoming failed: ${answer.body.message}`);
  return answer.body.data;
}

/** The text/calendar attachment of a received mail, decoded. */
export function calendarAttachment(mail: ReceivedMail): string | undefined {
  const boundaries = [...mail.raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((match) => match[1] ?? '');
  for (const boundary of boundaries) {
    for (const part of mail.raw.split(`--${boundary}`)) {
      const [head = '', ...body] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      if (!/content-type:\s*text\/calendar/i.test(head) || /boundary=/i.test(head)) continue;
      const content = body.join('\n\n');
      const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(head)?.[1]?.toLowerCase();
      if (encoding === 'base64') return Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8');
      if (encoding === 'quoted-printable') {
        return Buffer.from(
          content
            .replace(/=\r?\n/g, '')
            .replace(/=([0-9A-F]{2})/gi, (_w, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'binary',
        ).toString('utf8');
      }
      return content;
    }
  }
  return undefined;
}

export type ParsedEvent = nodeIcal.VEvent;

/** Parses ICS text with a real parser (node-ical) and answers its events. */
export function parseEvents(ics: string): { events: ParsedEvent[]; method: string | undefined } {
  const parsed = nodeIcal.sync.parseICS(ics);
  const events = Object.values(parsed).filter((component): component is ParsedEvent => component?.type === 'VEVENT');
  const calendar = Object.values(parsed).find((component) => component?.type === 'VCALENDAR') as
    { method?: string } | undefined;
  return { events, method: calendar?.method };
}
