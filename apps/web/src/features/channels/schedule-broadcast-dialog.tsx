import { BroadcastBodySchema } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { TextAreaField } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { apiPost } from '../../lib/api';
import { useRefreshChannels } from './use-channels';

/** `YYYY-MM-DDTHH:mm` in local time, the value a datetime-local input takes. */
function localInputValue(date: Date) {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function nextHour(offsetHours: number) {
  const date = new Date();
  date.setMinutes(0, 0, 0);
  date.setHours(date.getHours() + 1 + offsetHours);
  return localInputValue(date);
}

type Problem = 'name' | 'start' | 'start_past' | 'end';

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
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('schedule.title')} description={t('schedule.description')}>
      <ScheduleForm channelId={channelId} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

/** Lives only while the dialog is open, so each opening starts with fresh times. */
function ScheduleForm({ channelId, onDone }: { channelId: number; onDone(): void }) {
  const { t } = useTranslation('channels');
  const refresh = useRefreshChannels();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [start, setStart] = useState(nextHour(0));
  const [end, setEnd] = useState(nextHour(1));
  const [problems, setProblems] = useState<Problem[]>([]);

  const schedule = useMutation({
    mutationFn: () =>
      apiPost(
        'schedule-broadcast.php',
        {
          id: channelId,
          name,
          description,
          start_time: Math.floor(new Date(start).getTime() / 1000),
          end_time: Math.floor(new Date(end).getTime() / 1000),
        },
        { schema: BroadcastBodySchema },
      ),
    onSuccess: (body) => {
      toast.success(body.message);
      void refresh();
      onDone();
    },
  });

  const validate = (): Problem[] => {
    const found: Problem[] = [];
    const startTime = new Date(start).getTime();
    if (!name.trim()) found.push('name');
    if (Number.isNaN(startTime)) found.push('start');
    else if (startTime < Date.now() - 60_000) found.push('start_past');
    if (Number.isNaN(new Date(end).getTime()) || new Date(end).getTime() <= startTime) found.push('end');
    return found;
  };

  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        const found = validate();
        setProblems(found);
        if (found.length === 0) schedule.mutate();
      }}
    >
      <TextField
        label={t('schedule.name')}
        value={name}
        maxLength={120}
        onChange={(event) => setName(event.target.value)}
        error={problems.includes('name') ? t('schedule.errors.name') : undefined}
      />
      <TextAreaField
        label={t('schedule.about')}
        rows={3}
        maxLength={2000}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('schedule.start')}
          type="datetime-local"
          value={start}
          onChange={(event) => setStart(event.target.value)}
          error={
            problems.includes('start')
              ? t('schedule.errors.start')
              : problems.includes('start_past')
                ? t('schedule.errors.start_past')
                : undefined
          }
        />
        <TextField
          label={t('schedule.end')}
          type="datetime-local"
          value={end}
          onChange={(event) => setEnd(event.target.value)}
          error={problems.includes('end') ? t('schedule.errors.end') : undefined}
        />
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onDone}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" isLoading={schedule.isPending}>
          {t('schedule.submit')}
        </Button>
      </div>
    </form>
  );
}
