import type { EventClickArg, EventInput } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import FullCalendar from '@fullcalendar/react';
import type { AdminEvent } from '@meetcast/contracts';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CALENDAR_THEME_CLASS,
  markMoreLinkAsButton,
  textColorOn,
  useCalendarLocale,
} from '../../components/full-calendar/calendar-support';

interface EventsCalendarProps {
  /** The first day of the month shown; the page's own buttons move it. */
  month: Date;
  events: AdminEvent[];
  onSelect: (event: AdminEvent) => void;
}

/** The month as FullCalendar draws it (read-only): each entry opens its details on click. */
export default function EventsCalendar({ month, events, onSelect }: EventsCalendarProps) {
  const { t, i18n } = useTranslation('admin');
  const language = (i18n.resolvedLanguage ?? 'en').split('-')[0] ?? 'en';
  const locale = useCalendarLocale(language);
  const calendar = useRef<FullCalendar>(null);

  useEffect(() => {
    calendar.current?.getApi().gotoDate(month);
  }, [month]);

  const inputs = useMemo<EventInput[]>(
    () =>
      events.map((event) => ({
        id: event.key,
        title: event.title,
        start: new Date(event.start_time * 1000),
        end: new Date(Math.max(event.end_time, event.start_time + 900) * 1000),
        allDay: event.is_all_day,
        backgroundColor: event.color,
        borderColor: event.color,
        textColor: textColorOn(event.color),
        extendedProps: { entry: event },
      })),
    [events],
  );

  const onEventClick = (info: EventClickArg) => {
    info.jsEvent.preventDefault();
    onSelect(info.event.extendedProps.entry as AdminEvent);
  };

  return (
    <section
      aria-label={t('events.calendar_label')}
      className={`${CALENDAR_THEME_CLASS} rounded-2xl border border-slate-200 bg-white p-3 shadow-sm dark:border-slate-800 dark:bg-slate-900 text-[0.8125rem]`}
    >
      <FullCalendar
        ref={calendar}
        plugins={[dayGridPlugin]}
        initialView="dayGridMonth"
        initialDate={month}
        headerToolbar={false}
        locale={locale ?? 'en'}
        direction={i18n.dir(language)}
        firstDay={1}
        height="auto"
        dayMaxEvents={3}
        moreLinkDidMount={markMoreLinkAsButton}
        editable={false}
        events={inputs}
        eventClick={onEventClick}
        eventDidMount={(info) => {
          // Every entry is reachable and announced by keyboard and screen readers.
          info.el.setAttribute('role', 'button');
          info.el.setAttribute('tabindex', '0');
          info.el.setAttribute('aria-label', info.event.title);
          info.el.addEventListener('keydown', (event) => {
            if (event.key === 'Enter' || event.key === ' ') {
              event.preventDefault();
              onSelect(info.event.extendedProps.entry as AdminEvent);
            }
          });
        }}
      />
    </section>
  );
}
