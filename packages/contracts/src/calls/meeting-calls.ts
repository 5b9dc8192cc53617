import type { CallDefinition } from './call.js';
import { TokenInputSchema } from '../accounts.js';
import {
  AddEventInputSchema,
  CalendarBodySchema,
  CalendarEventBodySchema,
  CalendarEventListBodySchema,
  CalendarRangeInputSchema,
  EditEventInputSchema,
  EventIdInputSchema,
  EventRangeInputSchema,
} from '../calendar.js';
import { MessageBodySchema } from '../envelope.js';
import {
  AddInstantMeetingInputSchema,
  AddMeetingInputSchema,
  CalendarFeedBodySchema,
  CancelMeetingInputSchema,
  CheckMeetNameInputSchema,
  DashboardBodySchema,
  EditMeetingInputSchema,
  IcsFileBodySchema,
  InstantMeetingBodySchema,
  MeetingBodySchema,
  MeetingIdInputSchema,
  MeetingListBodySchema,
  MeetingListInputSchema,
} from '../meetings.js';

/* Meetings and the calendar. */
export const getUpcomingMeetings = {
  name: 'get-upcoming-meetings.php',
  auth: 'user',
  input: MeetingListInputSchema,
  output: MeetingListBodySchema,
} as const satisfies CallDefinition;
export const getRecentMeetings = {
  name: 'get-recent-meetings.php',
  auth: 'user',
  input: MeetingListInputSchema,
  output: MeetingListBodySchema,
} as const satisfies CallDefinition;
export const getDashboard = {
  name: 'get-dashboard.php',
  auth: 'user',
  input: TokenInputSchema,
  output: DashboardBodySchema,
} as const satisfies CallDefinition;
export const getEvents = {
  name: 'get-events.php',
  auth: 'user',
  input: EventRangeInputSchema,
  output: CalendarEventListBodySchema,
} as const satisfies CallDefinition;
export const addEvent = {
  name: 'add-event.php',
  auth: 'user',
  input: AddEventInputSchema,
  output: CalendarEventBodySchema,
} as const satisfies CallDefinition;
export const editEvent = {
  name: 'edit-event.php',
  auth: 'user',
  input: EditEventInputSchema,
  output: CalendarEventBodySchema,
} as const satisfies CallDefinition;
export const deleteEvent = {
  name: 'delete-event.php',
  auth: 'user',
  input: EventIdInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const getCalendar = {
  name: 'get-calendar.php',
  auth: 'user',
  input: CalendarRangeInputSchema,
  output: CalendarBodySchema,
} as const satisfies CallDefinition;
export const getCalendarFeed = {
  name: 'get-calendar-feed.php',
  auth: 'user',
  input: TokenInputSchema,
  output: CalendarFeedBodySchema,
} as const satisfies CallDefinition;
export const resetCalendarFeed = {
  name: 'reset-calendar-feed.php',
  auth: 'user',
  input: TokenInputSchema,
  output: CalendarFeedBodySchema,
} as const satisfies CallDefinition;
export const checkMeetName = {
  name: 'check-meet-name.php',
  auth: 'user',
  input: CheckMeetNameInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const addMeeting = {
  name: 'add-meeting.php',
  auth: 'user',
  input: AddMeetingInputSchema,
  output: MeetingBodySchema,
} as const satisfies CallDefinition;
export const addInstantMeeting = {
  name: 'add-instant-meeting.php',
  auth: 'user',
  input: AddInstantMeetingInputSchema,
  output: InstantMeetingBodySchema,
} as const satisfies CallDefinition;
export const getMeeting = {
  name: 'get-meeting.php',
  auth: 'user',
  input: MeetingIdInputSchema,
  output: MeetingBodySchema,
} as const satisfies CallDefinition;
export const editMeeting = {
  name: 'edit-meeting.php',
  auth: 'user',
  input: EditMeetingInputSchema,
  output: MeetingBodySchema,
} as const satisfies CallDefinition;
export const cancelMeeting = {
  name: 'cancel-meeting.php',
  auth: 'user',
  input: CancelMeetingInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const deleteMeeting = {
  name: 'delete-meeting.php',
  auth: 'user',
  input: MeetingIdInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const getMeetingIcs = {
  name: 'get-meeting-ics.php',
  auth: 'user',
  input: MeetingIdInputSchema,
  output: IcsFileBodySchema,
} as const satisfies CallDefinition;
