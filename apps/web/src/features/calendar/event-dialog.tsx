import { DEFAULT_EVENT_COLOR, EVENT_DESCRIPTION_MAX, EVENT_TITLE_MAX, type CalendarEvent } from '@meetcast/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { TextField } from '../../components/text-field';
import { DateTimeField } from '../../components/date-time-field';
import { TextAreaField } from '../../components/form-controls';
import { fromWall, toWall } from '../../lib/zoned-time';
import type { EventFields } from './calendar-api';

const DAY_MS = 86_400_000;
export const EVENT_COLORS = ['#4f46e5', '#0ea5e9', '#10b981', '#f59e0b', '#ef4444', '#ec4899', '#64748b'];

export interface EventDraft {
  /** The event being edited, or a new one with a chosen slot. */
  event?: CalendarEvent;
  start: number;
  end: number;
  isAllDay: boolean;
}

/** Create or edit a personal event: title, start, end, all-day, description, color. */
export function EventDialog({
  draft,
  zone,
  isBusy,
  onSave,
  onDelete,
  onClose,
}: {
  draft: EventDraft;
  zone: string;
  isBusy: boolean;
  onSave(fields: EventFields): void;
  onDelete(event: CalendarEvent): void;
  onClose(): void;
}) {
  const { t } = useTranslation('calendar');
  const [title, setTitle] = useState(draft.event?.title ?? '');
  const [description, setDescription] = useState(draft.event?.description ?? '');
  const [isAllDay, setIsAllDay] = useState(draft.isAllDay);
  const [color, setColor] = useState(draft.event?.color ?? DEFAULT_EVENT_COLOR);
  const [start, setStart] = useState<Date | null>(toWall(draft.start, zone));
  // All-day events end at midnight after their last day; the dialog shows the last day itself.
  const [end, setEnd] = useState<Date | null>(
    draft.isAllDay ? new Date(toWall(draft.end, zone).getTime() - DAY_MS) : toWall(draft.end, zone),
  );
  const [errors, setErrors] = useState<{ title?: string; end?: string }>({});

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!title.trim()) found.title = t('event.title_required');
    if (!start || !end) found.end = t('event.times_required');
    else if (end < start) found.end = t('event.end_before_start');
    setErrors(found);
    if (found.title || found.end || !start || !end) return;
    const dayStart = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate());
    const startWall = isAllDay ? dayStart(start) : start;
    const endWall = isAllDay ? new Date(dayStart(end).getTime() + DAY_MS) : end;
    onSave({
      title: title.trim(),
      description,
      start_time: fromWall(startWall, zone),
      end_time: fromWall(endWall, zone),
      is_all_day: isAllDay ? 1 : 0,
      color,
    });
  }

  return (
    <Dialog
      open
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={draft.event ? t('event.edit_title') : t('event.new_title')}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <TextField
          label={t('event.title')}
          name="title"
          value={title}
          maxLength={EVENT_TITLE_MAX}
          onChange={(event) => setTitle(event.target.value)}
          error={errors.title}
          autoFocus
        />
        <label className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
          <input type="checkbox" checked={isAllDay} onChange={(event) => setIsAllDay(event.target.checked)} />
          {t('event.all_day')}
        </label>
        <div className="grid gap-4 sm:grid-cols-2">
          <DateTimeField
            label={t('event.start')}
            name="start"
            value={start}
            onChange={setStart}
            isDateOnly={isAllDay}
          />
          <DateTimeField
            label={t('event.end')}
            name="end"
            value={end}
            onChange={setEnd}
            isDateOnly={isAllDay}
            error={errors.end}
          />
        </div>
        <TextAreaField
          label={t('event.description')}
          name="description"
          value={description}
          maxLength={EVENT_DESCRIPTION_MAX}
          onChange={(event) => setDescription(event.target.value)}
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">{t('event.color')}</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {EVENT_COLORS.map((swatch) => (
              <label key={swatch} className="cursor-pointer">
                <input
                  type="radio"
                  name="color"
                  value={swatch}
                  checked={color === swatch}
                  onChange={() => setColor(swatch)}
                  className="peer sr-only"
                  aria-label={swatch}
                />
                <span
                  className="block size-7 rounded-full ring-offset-2 peer-checked:ring-2 peer-checked:ring-slate-900 peer-focus-visible:ring-2 peer-focus-visible:ring-primary-500 dark:ring-offset-slate-900 dark:peer-checked:ring-white"
                  style={{ backgroundColor: swatch }}
                />
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-wrap justify-between gap-2">
          <div>
            {draft.event && (
              <Button variant="danger" onClick={() => draft.event && onDelete(draft.event)} disabled={isBusy}>
                {t('event.delete')}
              </Button>
            )}
          </div>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={onClose}>
              {t('event.cancel')}
            </Button>
            <Button type="submit" isLoading={isBusy}>
              {t('event.save')}
            </Button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}
