import { PlusIcon } from 'lucide-react';
import type { LiveBroadcast } from '@meetcast/contracts';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { SelectField } from '../../components/form-controls';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useStreamConnections } from '../streaming';
import { DestinationFields } from './destination-fields';
import { GoLivePlanSchema, newDestinationDraft } from './destination-requests';
import { useAddDestination } from './live-api';

/** Whether a destination still takes the stream (an ended or failed one may be added again). */
const isRunning = (state: LiveBroadcast['destinations'][number]['state']) =>
  state === 'starting' || state === 'live' || state === 'reconnecting';

/** Nothing chosen yet; the go-live plan's form holds the one destination added (recording is not asked). */
const NO_DESTINATION = { destinations: [], record: false };

/** While live: one more destination, from the working connections not streamed to yet. */
export function AddDestinationForm({ broadcast, meetingTitle }: { broadcast: LiveBroadcast; meetingTitle: string }) {
  const { t } = useTranslation('streaming');
  const connections = useStreamConnections();
  const add = useAddDestination(broadcast.url_slug);
  const [isOpen, setIsOpen] = useState(false);
  const form = useSchemaForm(GoLivePlanSchema, { defaultValues: NO_DESTINATION });
  const [draft] = useWatch({ control: form.control, name: 'destinations' });
  const running = new Set(broadcast.destinations.filter((d) => isRunning(d.state)).map((d) => d.connection_id));
  const unused = (connections.data ?? []).filter((c) => c.status === 'connected' && !running.has(c.id));
  const connection = unused.find((c) => c.id === draft?.connection_id);

  if (unused.length === 0) return null;
  if (!isOpen) {
    return (
      <Button size="sm" variant="secondary" onClick={() => setIsOpen(true)}>
        <PlusIcon className="size-4" />
        {t('live.add_destination')}
      </Button>
    );
  }

  /** Another connection keeps what was typed; only its id and platform change. */
  const choose = (id: number | undefined) => {
    const next = unused.find((c) => c.id === id);
    const typed = form.getValues('destinations.0');
    const destinations = next
      ? [{ ...(typed ?? newDestinationDraft(next, meetingTitle)), connection_id: next.id, platform: next.platform }]
      : [];
    form.setValue('destinations', destinations);
  };

  const onSubmit = form.handleSubmit(({ destinations: [destination] }) => {
    if (!destination) return;
    add.mutate(destination, {
      onSuccess: () => {
        setIsOpen(false);
        form.reset(NO_DESTINATION);
      },
    });
  });

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      aria-label={t('live.add_destination')}
      className="space-y-3 rounded-xl border border-slate-200 p-3 dark:border-slate-700"
    >
      <SelectField
        label={t('live.add_which')}
        value={connection ? String(connection.id) : ''}
        onChange={(event) => choose(event.target.value ? Number(event.target.value) : undefined)}
        options={[
          { value: '', label: t('live.add_choose') },
          ...unused.map((c) => ({ value: String(c.id), label: `${c.name} · ${t(`platforms.${c.platform}`)}` })),
        ]}
      />
      {connection && <DestinationFields connection={connection} form={form} index={0} />}
      <div className="flex flex-wrap justify-end gap-2">
        <Button size="sm" variant="secondary" onClick={() => setIsOpen(false)}>
          {t('actions.cancel')}
        </Button>
        <Button size="sm" type="submit" disabled={!connection} isLoading={add.isPending}>
          {t('live.add')}
        </Button>
      </div>
    </form>
  );
}
