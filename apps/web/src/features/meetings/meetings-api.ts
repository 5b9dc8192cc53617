import {
  CalendarFeedBodySchema,
  DashboardBodySchema,
  IcsFileBodySchema,
  InstantMeetingBodySchema,
  MeetingBodySchema,
  MeetingListBodySchema,
  MessageBodySchema,
  meetingRoomPath,
  type Meeting,
} from '@meetcast/contracts';
import { apiPost, type Fields } from '../../lib/api';

/** The calls of the meetings feature (the server's OpenAPI description, `GET /api/openapi.json`). */
export const meetingsApi = {
  checkMeetName: (name: string, id: number | undefined, signal: AbortSignal) =>
    apiPost('check-meet-name.php', { name, id }, { schema: MessageBodySchema, signal }),
  addMeeting: (fields: Fields) => apiPost('add-meeting.php', fields, { schema: MeetingBodySchema }),
  editMeeting: (fields: Fields) => apiPost('edit-meeting.php', fields, { schema: MeetingBodySchema }),
  addInstantMeeting: (name: string, slug: string) =>
    apiPost('add-instant-meeting.php', { name, slug }, { schema: InstantMeetingBodySchema }),
  upcoming: (fields: { page: number; per_page: number; search: string }) =>
    apiPost('get-upcoming-meetings.php', fields, { schema: MeetingListBodySchema }),
  recent: (fields: { page: number; per_page: number; search: string }) =>
    apiPost('get-recent-meetings.php', fields, { schema: MeetingListBodySchema }),
  cancel: (id: number, occurrenceStart?: number) =>
    apiPost('cancel-meeting.php', { id, occurrence_start: occurrenceStart }, { schema: MessageBodySchema }),
  remove: (id: number) => apiPost('delete-meeting.php', { id }, { schema: MessageBodySchema }),
  ics: (id: number) => apiPost('get-meeting-ics.php', { id }, { schema: IcsFileBodySchema }),
  dashboard: () => apiPost('get-dashboard.php', {}, { schema: DashboardBodySchema }),
  calendarFeed: () => apiPost('get-calendar-feed.php', {}, { schema: CalendarFeedBodySchema }),
  resetCalendarFeed: () => apiPost('reset-calendar-feed.php', {}, { schema: CalendarFeedBodySchema }),
};

/** The room address of a meeting, absolute, with its password when the caller may know it. */
export function roomUrl(meeting: Pick<Meeting, 'url_slug' | 'password'>): string {
  return `${window.location.origin}${meetingRoomPath(meeting)}`;
}

/** The room address a meeting link would get, for the hint under the link field while it is typed. */
export function roomAddressPreview(slug: string): string {
  return slug
    ? roomUrl({ url_slug: slug, password: null })
    : `${window.location.origin}${meetingRoomPath({ url_slug: '' })}…`;
}
