import { meetingCalls, type CalendarEvent } from '@meetcast/contracts';
import { api } from '../../lib/api';

export interface EventFields {
  title: string;
  description: string;
  start_time: number;
  end_time: number;
  is_all_day: 0 | 1;
  color: string;
}

export const calendarApi = {
  range: (start: number, end: number) => api.call(meetingCalls.getCalendar, { start_time: start, end_time: end }),
  add: (fields: EventFields) => api.call(meetingCalls.addEvent, { ...fields }),
  edit: (id: number, fields: EventFields) => api.call(meetingCalls.editEvent, { ...fields, id }),
  remove: (id: number) => api.call(meetingCalls.deleteEvent, { id }),
};

export function fieldsOf(event: CalendarEvent): EventFields {
  return {
    title: event.title,
    description: event.description,
    start_time: event.start_time,
    end_time: event.end_time,
    is_all_day: event.is_all_day ? 1 : 0,
    color: event.color,
  };
}
