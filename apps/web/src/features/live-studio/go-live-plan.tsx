import type { DestinationRequest, StreamConnection } from '@meetcast/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/spinner';
import { useStreamConnections } from '../streaming';
import { DestinationPicker } from './destination-picker';
import { newDestinationDraft, planGoLive, type DestinationDraft } from './destination-requests';

/** A plan saved before (My Channel's planned broadcasts), as the form's starting point. */
export interface SavedGoLivePlan {
  destinations: DestinationRequest[];
  record: boolean;
}

function draftOf(request: DestinationRequest, meetingTitle: string): DestinationDraft {
  return {
    ...newDestinationDraft(meetingTitle),
    title: request.title ?? '',
    description: request.description ?? '',
    privacy: request.privacy ?? 'public',
    // Only the category's id is kept with a plan; it stands for its name until another is picked.
    category: request.category ? { id: request.category, name: request.category } : null,
  };
}

/**
 * The choice before a broadcast: which connections, each platform's fields, and whether to record.
 * The room's Go live form and the channel's Schedule broadcast dialog both ask it; My Channel
 * starts it from a saved plan.
 */
export function useGoLivePlan(meetingTitle: string, saved?: SavedGoLivePlan) {
  const connections = useStreamConnections();
  const [chosen, setChosen] = useState<number[]>(() => saved?.destinations.map((d) => d.connection_id) ?? []);
  const [drafts, setDrafts] = useState<Record<number, DestinationDraft>>(() =>
    Object.fromEntries((saved?.destinations ?? []).map((d) => [d.connection_id, draftOf(d, meetingTitle)])),
  );
  const [record, setRecord] = useState(saved?.record ?? false);
  const [isChecking, setIsChecking] = useState(false);
  const list = connections.data ?? [];
  const plan = planGoLive({ chosen, drafts, record }, list);
  return {
    connections,
    list,
    chosen,
    drafts,
    record,
    plan,
    problems: isChecking && plan.kind === 'invalid' ? plan.problems : {},
    chosenCount: list.filter((c) => c.status === 'connected' && chosen.includes(c.id)).length,
    /** From now on, problems show under their fields. */
    check: () => setIsChecking(true),
    setRecord,
    setDraft: (id: number, draft: DestinationDraft) => setDrafts((current) => ({ ...current, [id]: draft })),
    toggle: (connection: StreamConnection, isChosen: boolean) => {
      setChosen((current) => (isChosen ? [...current, connection.id] : current.filter((id) => id !== connection.id)));
      if (isChosen && !drafts[connection.id]) {
        setDrafts((current) => ({ ...current, [connection.id]: newDestinationDraft(meetingTitle) }));
      }
    },
  };
}

export type GoLivePlanState = ReturnType<typeof useGoLivePlan>;

export function GoLivePlanFields({ state, legend }: { state: GoLivePlanState; legend: string }) {
  const { t } = useTranslation('streaming');
  const recordId = useId();
  const { connections } = state;
  return (
    <>
      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">{legend}</legend>
        {connections.isPending ? (
          <Spinner label={t('loading')} />
        ) : connections.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {connections.error.message}
          </p>
        ) : (
          <DestinationPicker
            connections={state.list}
            chosen={state.chosen}
            drafts={state.drafts}
            problems={state.problems}
            onToggle={state.toggle}
            onDraftChange={state.setDraft}
          />
        )}
      </fieldset>
      <div>
        <label htmlFor={recordId} className="flex items-center gap-3 text-sm font-medium">
          <input
            id={recordId}
            type="checkbox"
            checked={state.record}
            onChange={(event) => state.setRecord(event.target.checked)}
            aria-describedby={`${recordId}-hint`}
            className="size-4 accent-primary-600"
          />
          {t('go_live.record')}
        </label>
        <p id={`${recordId}-hint`} className="mt-1 ps-7 text-xs text-slate-600 dark:text-slate-400">
          {t('go_live.record_hint')}
        </p>
      </div>
    </>
  );
}
