import { PlusIcon } from 'lucide-react';
import type { LiveBroadcast } from '@meetcast/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { SelectField } from '../../components/form-controls';
import { useStreamConnections } from '../streaming';
import { DestinationFields } from './destination-fields';
import {
  hasProblems,
  newDestinationDraft,
  toDestinationRequest,
  validateDestination,
  type DestinationDraft,
} from './destination-requests';
import { useAddDestination } from './live-api';

/** Whether a destination still takes the stream (an ended or failed one may be added again). */
const isRunning = (state: LiveBroadcast['destinations'][number]['state']) =>
  state === 'starting' || state === 'live' || state === 'reconnecting';

/** While live: one more destination, from the working connections not streamed to yet. */
export function AddDestinationForm({ broadcast, meetingTitle }: { broadcast: LiveBroadcast; meetingTitle: string }) {
  const { t } = useTranslation('streaming');
  const connections = useStreamConnections();
  const add = useAddDestination(broadcast.url_slug);
  const [isOpen, setIsOpen] = useState(false);
  const [connectionId, setConnectionId] = useState<number>();
  const [draft, setDraft] = useState<DestinationDraft>(() => newDestinationDraft(meetingTitle));
  const [isChecking, setIsChecking] = useState(false);
  const running = new Set(broadcast.destinations.filter((d) => isRunning(d.state)).map((d) => d.connection_id));
  const unused = (connections.data ?? []).filter((c) => c.status === 'connected' && !running.has(c.id));
  const connection = unused.find((c) => c.id === connectionId);
  const problems = connection && isChecking ? validateDestination(connection.platform, draft) : {};

  if (unused.length === 0) return null;
  if (!isOpen) {
    return (
      <Button size="sm" variant="secondary" onClick={() => setIsOpen(true)}>
        <PlusIcon className="size-4" />
        {t('live.add_destination')}
      </Button>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setIsChecking(true);
    if (!connection || hasProblems(validateDestination(connection.platform, draft))) return;
    add.mutate(toDestinationRequest(connection, draft), {
      onSuccess: () => {
        setIsOpen(false);
        setConnectionId(undefined);
        setDraft(newDestinationDraft(meetingTitle));
        setIsChecking(false);
      },
    });
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label={t('live.add_destination')}
      className="space-y-3 rounded-xl border border-slate-200 p-3 dark:border-slate-700"
    >
      <SelectField
        label={t('live.add_which')}
        value={connectionId === undefined ? '' : String(connectionId)}
        onChange={(event) => setConnectionId(event.target.value ? Number(event.target.value) : undefined)}
        options={[
          { value: '', label: t('live.add_choose') },
          ...unused.map((c) => ({ value: String(c.id), label: `${c.name} · ${t(`platforms.${c.platform}`)}` })),
        ]}
      />
      {connection && (
        <DestinationFields connection={connection} draft={draft} problems={problems} onChange={setDraft} />
      )}
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
