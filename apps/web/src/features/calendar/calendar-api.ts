import {
  CalendarBodySchema,
  CalendarEventBodySchema,
  MessageBodySchema,
  type CalendarEvent,
} from '@meetcast/contracts';
import { apiPost } from '../../lib/api';

export interface EventFields {
  title: string;
  description: string;
  start_time: number;
  end_time: number;
  is_all_day: 0 | 1;
  color: string;
}

export const calendarApi = {
  range: (start: number, end: number) =>
    apiPost('get-calendar.php', { start_time: start, end_time: end }, { schema: CalendarBodySchema }),
  add: (fields: EventFields) => apiPost('add-event.php', { ...fields }, { schema: CalendarEventBodySchema }),
  edit: (id: number, fields: EventFields) =>
    apiPost('edit-event.php', { ...fields, id }, { schema: CalendarEventBodySchema }),
  remove: (id: number) => apiPost('delete-event.php', { id }, { schema: MessageBodySchema }),
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
