import { meetingRoomPath, type Meeting } from '@meetcast/contracts';
import { api, type WebCallInput } from '../../lib/api';

/** The calls of the meetings feature (the server's OpenAPI description, `GET /api/openapi.json`). */
export const meetingsApi = {
  checkMeetName: (name: string, id: number | undefined, signal: AbortSignal) =>
    api.call('check-meet-name.php', { name, id }, { signal }),
  addMeeting: (fields: WebCallInput<'add-meeting.php'>) => api.call('add-meeting.php', fields),
  editMeeting: (fields: WebCallInput<'edit-meeting.php'>) => api.call('edit-meeting.php', fields),
  addInstantMeeting: (name: string, slug: string) => api.call('add-instant-meeting.php', { name, slug }),
  upcoming: (fields: { page: number; per_page: number; search: string }) =>
    api.call('get-upcoming-meetings.php', fields),
  recent: (fields: { page: number; per_page: number; search: string }) => api.call('get-recent-meetings.php', fields),
  cancel: (id: number, occurrenceStart?: number) =>
    api.call('cancel-meeting.php', { id, occurrence_start: occurrenceStart }),
  remove: (id: number) => api.call('delete-meeting.php', { id }),
  ics: (id: number) => api.call('get-meeting-ics.php', { id }),
  dashboard: () => api.call('get-dashboard.php', {}),
  calendarFeed: () => api.call('get-calendar-feed.php', {}),
  resetCalendarFeed: () => api.call('reset-calendar-feed.php', {}),
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
