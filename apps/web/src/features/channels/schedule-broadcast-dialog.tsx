import { peopleCalls, ScheduleBroadcastInputSchema } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { Button } from '../../components/button';
import { DateTimeField } from '../../components/date-time-field';
import { Dialog, DialogClose } from '../../components/dialog';
import { TextAreaField } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { api } from '../../lib/api';
import { useSchemaForm } from '../../lib/use-schema-form';
import { browserTimeZone, fromWall, isKnownTimeZone, toWall } from '../../lib/zoned-time';
import { GoLivePlanFields, useGoLivePlan, type GoLivePlan } from '../live-studio';
import { useCurrentUser } from '../session';
import { useRefreshChannels } from './use-channels';

const HOUR = 3600;

/** The start of the hour after next `offsetHours`, as a wall-clock Date of the zone. */
function nextHour(offsetHours: number, zone: string) {
  const now = Math.floor(Date.now() / 1000);
  return toWall((Math.floor(now / HOUR) + 1 + offsetHours) * HOUR, zone);
}

/** The call's name and description, and its times as the wall-clock dates the pickers hold. */
const scheduleForm = (zone: string) =>
  ScheduleBroadcastInputSchema.pick({ name: true, description: true })
    .required()
    .extend({ start: z.date().nullable(), end: z.date().nullable() })
    .superRefine(({ start, end }, context) => {
      const problem = (path: 'start' | 'end', message: 'start' | 'start_past' | 'end') =>
        context.addIssue({ code: 'custom', path: [path], message });
      // A minute of slack: a start picked as "now" stays valid while the form is filled in.
      if (!start) problem('start', 'start');
      else if (fromWall(start, zone) * 1000 < Date.now() - 60_000) problem('start', 'start_past');
      if (!end || (start && end <= start)) problem('end', 'end');
    });

/** Schedules a broadcast on the owner's channel: a real meeting; followers are notified. */
export function ScheduleBroadcastDialog({
  channelId,
  open,
  onOpenChange,
}: {
  channelId: number;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const { t } = useTranslation('channels');
  const [isDirty, setIsDirty] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={(isOpen) => {
        if (!isOpen) setIsDirty(false);
        onOpenChange(isOpen);
      }}
      isDirty={isDirty}
      title={t('schedule.title')}
      description={t('schedule.description')}
    >
      <ScheduleForm
        channelId={channelId}
        onTyped={() => setIsDirty(true)}
        onDone={() => {
          setIsDirty(false);
          onOpenChange(false);
        }}
      />
    </Dialog>
  );
}

/** Lives only while the dialog is open, so each opening starts with fresh times. */
function ScheduleForm({ channelId, onDone, onTyped }: { channelId: number; onDone(): void; onTyped(): void }) {
  const { t } = useTranslation('channels');
  const planHeadingId = useId();
  const refresh = useRefreshChannels();
  const user = useCurrentUser();
  const zone = isKnownTimeZone(user?.time_zone) ? user.time_zone : browserTimeZone();
  const [schema] = useState(() => scheduleForm(zone));
  const form = useSchemaForm(schema, {
    defaultValues: { name: '', description: '', start: nextHour(0, zone), end: nextHour(1, zone) },
  });
  const { errors } = form.formState;
  const name = useWatch({ control: form.control, name: 'name' });
  // Optional: where it goes live by itself at its time, once the owner is in the room.
  const goLive = useGoLivePlan(name);

  const schedule = useMutation({
    mutationKey: ['schedule-broadcast'],
    mutationFn: ({ start, end, plan, ...values }: z.output<typeof schema> & { plan: GoLivePlan }) =>
      api.call(peopleCalls.scheduleBroadcast, {
        ...values,
        id: channelId,
        start_time: start ? fromWall(start, zone) : 0,
        end_time: end ? fromWall(end, zone) : 0,
        destinations: plan.destinations,
        record: plan.record ? 1 : 0,
      }),
    onSuccess: (body) => {
      toast.success(body.message);
      void refresh();
      onDone();
    },
  });
  // Both forms are checked, so every field in error shows at once; it is sent when both are valid.
  const submit = async () => {
    let plan: GoLivePlan | undefined;
    await goLive.form.handleSubmit((valid) => {
      plan = valid;
    })();
    await form.handleSubmit((values) => {
      if (plan) schedule.mutate({ ...values, plan });
    })();
  };

  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField
        label={t('schedule.name')}
        maxLength={120}
        error={errors.name && t('schedule.errors.name')}
        {...form.register('name', { onChange: onTyped })}
      />
      <TextAreaField
        label={t('schedule.about')}
        rows={3}
        maxLength={2000}
        {...form.register('description', { onChange: onTyped })}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Controller
          control={form.control}
          name="start"
          render={({ field }) => (
            <DateTimeField
              label={t('schedule.start')}
              name="start_time"
              value={field.value}
              onChange={field.onChange}
              error={
                errors.start &&
                (errors.start.message === 'start_past' ? t('schedule.errors.start_past') : t('schedule.errors.start'))
              }
            />
          )}
        />
        <Controller
          control={form.control}
          name="end"
          render={({ field }) => (
            <DateTimeField
              label={t('schedule.end')}
              name="end_time"
              value={field.value}
              onChange={field.onChange}
              error={errors.end && t('schedule.errors.end')}
            />
          )}
        />
      </div>
      <section
        aria-labelledby={planHeadingId}
        className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700"
      >
        <div>
          <h3 id={planHeadingId} className="text-sm font-semibold text-slate-900 dark:text-white">
            {t('schedule.plan_title')}
          </h3>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{t('schedule.plan_hint')}</p>
        </div>
        <GoLivePlanFields state={goLive} legend={t('schedule.plan_where')} />
      </section>
      <div className="flex justify-end gap-2">
        <DialogClose>{t('actions.cancel')}</DialogClose>
        <Button type="submit" isLoading={schedule.isPending}>
          {t('schedule.submit')}
        </Button>
      </div>
    </form>
  );
}
