import {
  AddEventInputSchema,
  DEFAULT_EVENT_COLOR,
  EVENT_DESCRIPTION_MAX,
  EVENT_TITLE_MAX,
  type CalendarEvent,
} from '@meetcast/contracts';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { TextField } from '../../components/text-field';
import { DateTimeField } from '../../components/date-time-field';
import { TextAreaField } from '../../components/form-controls';
import { useSchemaForm } from '../../lib/use-schema-form';
import { fromWall, toWall } from '../../lib/zoned-time';
import type { EventFields } from './calendar-api';

const DAY_MS = 86_400_000;
export const EVENT_COLORS = ['#4f46e5', '#0ea5e9', '#10b981', '#f59e0b', '#ef4444', '#ec4899', '#64748b'];

/** The call's fields, with the times as the wall-clock dates the pickers hold (null until chosen). */
const FormSchema = AddEventInputSchema.pick({ title: true, description: true, color: true })
  .required()
  .extend({ is_all_day: z.boolean(), start: z.date().nullable(), end: z.date().nullable() })
  .superRefine(({ start, end }, context) => {
    if (!start || !end) context.addIssue({ code: 'custom', path: ['end'], message: 'times_required' });
    else if (end < start) context.addIssue({ code: 'custom', path: ['end'], message: 'end_before_start' });
  });
type FormOutput = z.output<typeof FormSchema>;

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
  const form = useSchemaForm(FormSchema, {
    defaultValues: {
      title: draft.event?.title ?? '',
      description: draft.event?.description ?? '',
      is_all_day: draft.isAllDay,
      color: draft.event?.color ?? DEFAULT_EVENT_COLOR,
      start: toWall(draft.start, zone),
      // All-day events end at midnight after their last day; the dialog shows the last day itself.
      end: draft.isAllDay ? new Date(toWall(draft.end, zone).getTime() - DAY_MS) : toWall(draft.end, zone),
    },
  });
  const { errors } = form.formState;
  const isAllDay = useWatch({ control: form.control, name: 'is_all_day' });
  const endError =
    errors.end?.message === 'end_before_start' ? t('event.end_before_start') : errors.end && t('event.times_required');

  function save({ title, description, color, is_all_day: allDay, start, end }: FormOutput) {
    if (!start || !end) return;
    const dayStart = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate());
    const startWall = allDay ? dayStart(start) : start;
    const endWall = allDay ? new Date(dayStart(end).getTime() + DAY_MS) : end;
    onSave({
      title,
      description,
      start_time: fromWall(startWall, zone),
      end_time: fromWall(endWall, zone),
      is_all_day: allDay ? 1 : 0,
      color,
    });
  }

  return (
    <Dialog
      open
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={draft.event ? t('event.edit_title') : t('event.new_title')}
    >
      <form onSubmit={form.handleSubmit(save)} noValidate className="space-y-4">
        <TextField
          label={t('event.title')}
          maxLength={EVENT_TITLE_MAX}
          error={errors.title && t('event.title_required')}
          {...form.register('title')}
          autoFocus
        />
        <label className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
          <input type="checkbox" {...form.register('is_all_day')} />
          {t('event.all_day')}
        </label>
        <div className="grid gap-4 sm:grid-cols-2">
          <Controller
            control={form.control}
            name="start"
            render={({ field }) => (
              <DateTimeField
                label={t('event.start')}
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                isDateOnly={isAllDay}
              />
            )}
          />
          <Controller
            control={form.control}
            name="end"
            render={({ field }) => (
              <DateTimeField
                label={t('event.end')}
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                isDateOnly={isAllDay}
                error={endError}
              />
            )}
          />
        </div>
        <TextAreaField
          label={t('event.description')}
          maxLength={EVENT_DESCRIPTION_MAX}
          {...form.register('description')}
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">{t('event.color')}</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {EVENT_COLORS.map((swatch) => (
              <label key={swatch} className="cursor-pointer">
                <input
                  type="radio"
                  value={swatch}
                  {...form.register('color')}
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
