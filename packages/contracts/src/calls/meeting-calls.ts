import type { CallTable } from './call.js';
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

/** Meetings and the calendar. */
export const meetingCalls = {
  'get-upcoming-meetings.php': { auth: 'user', input: MeetingListInputSchema, output: MeetingListBodySchema },
  'get-recent-meetings.php': { auth: 'user', input: MeetingListInputSchema, output: MeetingListBodySchema },
  'get-dashboard.php': { auth: 'user', input: TokenInputSchema, output: DashboardBodySchema },
  'get-events.php': { auth: 'user', input: EventRangeInputSchema, output: CalendarEventListBodySchema },
  'add-event.php': { auth: 'user', input: AddEventInputSchema, output: CalendarEventBodySchema },
  'edit-event.php': { auth: 'user', input: EditEventInputSchema, output: CalendarEventBodySchema },
  'delete-event.php': { auth: 'user', input: EventIdInputSchema, output: MessageBodySchema },
  'get-calendar.php': { auth: 'user', input: CalendarRangeInputSchema, output: CalendarBodySchema },
  'get-calendar-feed.php': { auth: 'user', input: TokenInputSchema, output: CalendarFeedBodySchema },
  'reset-calendar-feed.php': { auth: 'user', input: TokenInputSchema, output: CalendarFeedBodySchema },
  'check-meet-name.php': { auth: 'user', input: CheckMeetNameInputSchema, output: MessageBodySchema },
  'add-meeting.php': { auth: 'user', input: AddMeetingInputSchema, output: MeetingBodySchema },
  'add-instant-meeting.php': { auth: 'user', input: AddInstantMeetingInputSchema, output: InstantMeetingBodySchema },
  'get-meeting.php': { auth: 'user', input: MeetingIdInputSchema, output: MeetingBodySchema },
  'edit-meeting.php': { auth: 'user', input: EditMeetingInputSchema, output: MeetingBodySchema },
  'cancel-meeting.php': { auth: 'user', input: CancelMeetingInputSchema, output: MessageBodySchema },
  'delete-meeting.php': { auth: 'user', input: MeetingIdInputSchema, output: MessageBodySchema },
  'get-meeting-ics.php': { auth: 'user', input: MeetingIdInputSchema, output: IcsFileBodySchema },
} as const satisfies CallTable;
