import { meetingCalls, meetingRoomPath, type Meeting } from '@meetcast/contracts';
import { api, type WebCallInput } from '../../lib/api';

/** The calls of the meetings feature (the server's OpenAPI description, `GET /api/openapi.json`). */
export const meetingsApi = {
  checkMeetName: (name: string, id: number | undefined, signal: AbortSignal) =>
    api.call(meetingCalls.checkMeetName, { name, id }, { signal }),
  addMeeting: (fields: WebCallInput<typeof meetingCalls.addMeeting>) => api.call(meetingCalls.addMeeting, fields),
  editMeeting: (fields: WebCallInput<typeof meetingCalls.editMeeting>) => api.call(meetingCalls.editMeeting, fields),
  addInstantMeeting: (name: string, slug: string) => api.call(meetingCalls.addInstantMeeting, { name, slug }),
  upcoming: (fields: { page: number; per_page: number; search: string }) =>
    api.call(meetingCalls.getUpcomingMeetings, fields),
  recent: (fields: { page: number; per_page: number; search: string }) =>
    api.call(meetingCalls.getRecentMeetings, fields),
  cancel: (id: number, occurrenceStart?: number) =>
    api.call(meetingCalls.cancelMeeting, { id, occurrence_start: occurrenceStart }),
  remove: (id: number) => api.call(meetingCalls.deleteMeeting, { id }),
  ics: (id: number) => api.call(meetingCalls.getMeetingIcs, { id }),
  dashboard: () => api.call(meetingCalls.getDashboard, {}),
  calendarFeed: () => api.call(meetingCalls.getCalendarFeed, {}),
  resetCalendarFeed: () => api.call(meetingCalls.resetCalendarFeed, {}),
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
