import type { DateSelectArg, EventClickArg, EventInput } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin, { type EventResizeDoneArg } from '@fullcalendar/interaction';
import listPlugin from '@fullcalendar/list';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import type { EventDropArg } from '@fullcalendar/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { CalendarEvent, MeetingOccurrence } from '@meetcast/contracts';
import {
  CALENDAR_THEME_CLASS,
  markMoreLinkAsButton,
  textColorOn,
  useCalendarLocale,
  useDecorativeCalendarIcons,
} from '../../components/full-calendar/calendar-support';
import { useMeetingDialogs } from '../meetings';
import { fromWall, toWall } from '../../lib/zoned-time';
import { calendarApi, fieldsOf, type EventFields } from './calendar-api';
import { EventDialog, type EventDraft } from './event-dialog';
import { MeetingDetailsDialog, SlotChoiceDialog } from './calendar-dialogs';

// White text on it passes WCAG AA (5.9:1).
const MEETING_COLOR = '#0369a1';
const HOUR = 3600;

/** FullCalendar with month, week, day and list views: meetings (read-only) and personal events (editable). */
export default function CalendarView({ zone }: { zone: string }) {
  const { t, i18n } = useTranslation('calendar');
  const language = (i18n.resolvedLanguage ?? 'en').split('-')[0] ?? 'en';
  const locale = useCalendarLocale(language);
  const queryClient = useQueryClient();
  const dialogs = useMeetingDialogs();
  const [range, setRange] = useState<{ start: number; end: number }>();
  const [draft, setDraft] = useState<EventDraft>();
  const [slot, setSlot] = useState<{ start: number; end: number; isAllDay: boolean }>();
  const [meeting, setMeeting] = useState<MeetingOccurrence>();
  const [isBusy, setIsBusy] = useState(false);
  const container = useDecorativeCalendarIcons<HTMLDivElement>();

  const calendar = useQuery({
    queryKey: ['calendar', range?.start, range?.end],
    queryFn: () => calendarApi.range(range?.start ?? 0, range?.end ?? 0),
    enabled: range !== undefined,
  });

  const events = useMemo<EventInput[]>(() => {
    const data = calendar.data?.data;
    if (!data) return [];
    return [
      ...data.meetings.map((occurrence) => ({
        id: `meeting-${occurrence.id}-${occurrence.occurrence_start}`,
        title: occurrence.name,
        start: toWall(occurrence.occurrence_start, zone),
        end: toWall(Math.max(occurrence.occurrence_end, occurrence.occurrence_start + 900), zone),
        editable: false,
        backgroundColor: MEETING_COLOR,
        borderColor: MEETING_COLOR,
        classNames: ['meetcast-meeting'],
        extendedProps: { meeting: occurrence },
      })),
      ...data.events.map((event) => ({
        id: `event-${event.id}`,
        title: event.title,
        start: toWall(event.start_time, zone),
        end: toWall(event.end_time, zone),
        allDay: event.is_all_day,
        editable: true,
        backgroundColor: event.color,
        borderColor: event.color,
        textColor: textColorOn(event.color),
        extendedProps: { event },
      })),
    ];
  }, [calendar.data, zone]);

  async function run(work: () => Promise<{ message: string }>) {
    setIsBusy(true);
    try {
      toast.success((await work()).message);
      setDraft(undefined);
      await queryClient.invalidateQueries({ queryKey: ['calendar'] });
      return true;
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : String(failure));
      return false;
    } finally {
      setIsBusy(false);
    }
  }

  async function onMoved(info: EventDropArg | EventResizeDoneArg) {
    const event = info.event.extendedProps.event as CalendarEvent | undefined;
    if (!event || !info.event.start) return info.revert();
    const start = fromWall(info.event.start, zone);
    const end = info.event.end ? fromWall(info.event.end, zone) : start + (info.event.allDay ? 24 * HOUR : HOUR);
    const isDone = await run(() =>
      calendarApi.edit(event.id, {
        ...fieldsOf(event),
        start_time: start,
        end_time: end,
        is_all_day: info.event.allDay ? 1 : 0,
      }),
    );
    if (!isDone) info.revert();
  }

  function onSelect(selection: DateSelectArg) {
    selection.view.calendar.unselect();
    setSlot({ start: fromWall(selection.start, zone), end: fromWall(selection.end, zone), isAllDay: selection.allDay });
  }

  function onEventClick(info: EventClickArg) {
    const event = info.event.extendedProps.event as CalendarEvent | undefined;
    const occurrence = info.event.extendedProps.meeting as MeetingOccurrence | undefined;
    if (event) setDraft({ event, start: event.start_time, end: event.end_time, isAllDay: event.is_all_day });
    else if (occurrence) setMeeting(occurrence);
  }

  function scheduleFromSlot(chosen: { start: number; end: number; isAllDay: boolean }) {
    setSlot(undefined);
    const now = Math.ceil(Date.now() / 1000 / 900) * 900;
    let start = chosen.isAllDay ? chosen.start + 9 * HOUR : chosen.start;
    if (start < now) start = now;
    const end = chosen.isAllDay || chosen.end <= start ? start + HOUR : chosen.end;
    dialogs.open('schedule', { start, end });
  }

  return (
    <div
      ref={container}
      className={`${CALENDAR_THEME_CLASS} rounded-2xl border border-slate-200 bg-white p-3 shadow-sm sm:p-5 dark:border-slate-800 dark:bg-slate-900`}
    >
      {calendar.isError && (
        <p role="alert" className="mb-3 text-sm text-red-700 dark:text-red-300">
          {calendar.error.message}
        </p>
      )}
      <FullCalendar
        plugins={[dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin]}
        initialView="dayGridMonth"
        headerToolbar={{
          left: 'prev,next today',
          center: 'title',
          right: 'dayGridMonth,timeGridWeek,timeGridDay,listWeek',
        }}
        buttonText={{
          today: t('views.today'),
          month: t('views.month'),
          week: t('views.week'),
          day: t('views.day'),
          list: t('views.list'),
        }}
        locale={locale ?? 'en'}
        direction={i18n.dir()}
        firstDay={1}
        height="auto"
        nowIndicator
        selectable
        selectMirror
        editable
        dayMaxEvents
        moreLinkDidMount={markMoreLinkAsButton}
        events={events}
        datesSet={(info) => setRange({ start: fromWall(info.start, zone), end: fromWall(info.end, zone) })}
        select={onSelect}
        eventClick={onEventClick}
        eventDrop={(info) => void onMoved(info)}
        eventResize={(info) => void onMoved(info)}
      />
      {slot && (
        <SlotChoiceDialog
          onEvent={() => {
            setDraft({ start: slot.start, end: slot.end, isAllDay: slot.isAllDay });
            setSlot(undefined);
          }}
          onMeeting={() => scheduleFromSlot(slot)}
          onClose={() => setSlot(undefined)}
        />
      )}
      {draft && (
        <EventDialog
          draft={draft}
          zone={zone}
          isBusy={isBusy}
          onClose={() => setDraft(undefined)}
          onSave={(fields: EventFields) =>
            void run(() => (draft.event ? calendarApi.edit(draft.event.id, fields) : calendarApi.add(fields)))
          }
          onDelete={(event) => void run(() => calendarApi.remove(event.id))}
        />
      )}
      {meeting && <MeetingDetailsDialog meeting={meeting} zone={zone} onClose={() => setMeeting(undefined)} />}
    </div>
  );
}
