import type { StreamConnection } from '@meetcast/contracts';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { BroadcastIcon } from '../../components/icons';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { useStreamConnections } from '../streaming';
import { DestinationPicker } from './destination-picker';
import { newDestinationDraft, planGoLive, type DestinationDraft } from './destination-requests';
import { useStartBroadcast } from './live-api';

/**
 * Before going live: which connections to stream to (with each platform's fields), whether to
 * record, and Go live. Recording with no destination is allowed ("Start recording").
 */
export function GoLiveForm({ meetId, meetingTitle }: { meetId: string; meetingTitle: string }) {
  const { t } = useTranslation('streaming');
  const recordId = useId();
  const connections = useStreamConnections();
  const start = useStartBroadcast(meetId);
  const [chosen, setChosen] = useState<number[]>([]);
  const [drafts, setDrafts] = useState<Record<number, DestinationDraft>>({});
  const [record, setRecord] = useState(false);
  const [isChecking, setIsChecking] = useState(false);
  const list = connections.data ?? [];
  const plan = planGoLive({ chosen, drafts, record }, list);
  const problems = isChecking && plan.kind === 'invalid' ? plan.problems : {};
  const chosenCount = list.filter((c) => c.status === 'connected' && chosen.includes(c.id)).length;

  const onToggle = (connection: StreamConnection, isChosen: boolean) => {
    setChosen((current) => (isChosen ? [...current, connection.id] : current.filter((id) => id !== connection.id)));
    if (isChosen && !drafts[connection.id]) {
      setDrafts((current) => ({ ...current, [connection.id]: newDestinationDraft(meetingTitle) }));
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setIsChecking(true);
    if (plan.kind !== 'ready') return;
    start.mutate({ destinations: plan.destinations, record: plan.record });
  };

  return (
    <form noValidate onSubmit={onSubmit} aria-label={t('go_live.form')} className="space-y-5">
      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">{t('go_live.where')}</legend>
        {connections.isPending ? (
          <Spinner label={t('loading')} />
        ) : connections.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {connections.error.message}
          </p>
        ) : (
          <DestinationPicker
            connections={list}
            chosen={chosen}
            drafts={drafts}
            problems={problems}
            onToggle={onToggle}
            onDraftChange={(id, draft) => setDrafts((current) => ({ ...current, [id]: draft }))}
          />
        )}
      </fieldset>
      <div>
        <label htmlFor={recordId} className="flex items-center gap-3 text-sm font-medium">
          <input
            id={recordId}
            type="checkbox"
            checked={record}
            onChange={(event) => setRecord(event.target.checked)}
            aria-describedby={`${recordId}-hint`}
            className="size-4 accent-primary-600"
          />
          {t('go_live.record')}
        </label>
        <p id={`${recordId}-hint`} className="mt-1 ps-7 text-xs text-slate-600 dark:text-slate-400">
          {t('go_live.record_hint')}
        </p>
      </div>
      {plan.kind === 'nothing' && (
        <p className="text-xs text-slate-600 dark:text-slate-400">{t('go_live.choose_something')}</p>
      )}
      <Button
        type="submit"
        variant="danger"
        className="w-full"
        disabled={plan.kind === 'nothing'}
        isLoading={start.isPending}
      >
        <BroadcastIcon className="size-4" />
        {chosenCount === 0 && record ? t('go_live.start_recording') : t('go_live.submit')}
      </Button>
    </form>
  );
}
