import type { BroadcastPlan, StreamConnection } from '@meetcast/contracts';
import { useEffect, useId, useRef } from 'react';
import { useFieldArray, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/spinner';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useStreamConnections } from '../streaming';
import { DestinationPicker } from './destination-picker';
import { draftOf, GoLivePlanSchema, newDestinationDraft, type DestinationDraft } from './destination-requests';

/** A plan saved before (My Channel's planned broadcasts), as the form's starting point. */
export type SavedGoLivePlan = Pick<BroadcastPlan, 'destinations' | 'record'>;

/**
 * The choice before a broadcast: which connections, each platform's fields, and whether to record.
 * The room's Go live form and the channel's Schedule broadcast dialog both ask it; My Channel
 * starts it from a saved plan. The form's `destinations` are the chosen connections in the order of
 * the list; its valid output is the contract's destinations and the recording flag.
 */
export function useGoLivePlan(meetingTitle: string, saved?: SavedGoLivePlan) {
  const connections = useStreamConnections();
  const form = useSchemaForm(GoLivePlanSchema, {
    defaultValues: {
      // A connection that stopped working since the plan was saved is left out, as it is when the plan starts.
      destinations: (saved?.destinations ?? []).filter((d) => d.status === 'connected').map(draftOf),
      record: saved?.record ?? false,
    },
  });
  const { fields, insert, remove } = useFieldArray({ control: form.control, name: 'destinations' });
  // A destination unchosen keeps what was typed for it, should it be chosen again.
  const setAside = useRef<Record<number, DestinationDraft>>({});
  const record = useWatch({ control: form.control, name: 'record' });
  const list = connections.data;
  const chosen = fields.map((field) => field.connection_id);

  // A connection removed since the plan was saved is not sent.
  useEffect(() => {
    if (!list) return;
    const usable = new Set(list.filter((c) => c.status === 'connected').map((c) => c.id));
    const gone = chosen.flatMap((id, index) => (usable.has(id) ? [] : [index]));
    if (gone.length > 0) remove(gone);
  }, [list, chosen, remove]);

  const chosenCount = (list ?? []).filter((c) => c.status === 'connected' && chosen.includes(c.id)).length;
  return {
    connections,
    list: list ?? [],
    form,
    chosen,
    chosenCount,
    record,
    /** Neither a destination nor a recording: nothing would start. */
    isNothing: chosenCount === 0 && !record,
    toggle: (connection: StreamConnection, isChosen: boolean) => {
      if (isChosen) {
        const order = (list ?? []).map((c) => c.id);
        const at = chosen.filter((id) => order.indexOf(id) < order.indexOf(connection.id)).length;
        const draft = setAside.current[connection.id] ?? newDestinationDraft(connection, meetingTitle);
        insert(at, draft, { shouldFocus: false });
      } else {
        const index = chosen.indexOf(connection.id);
        setAside.current[connection.id] = form.getValues(`destinations.${index}`);
        remove(index);
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
          <DestinationPicker connections={state.list} chosen={state.chosen} form={state.form} onToggle={state.toggle} />
        )}
      </fieldset>
      <div>
        <label htmlFor={recordId} className="flex items-center gap-3 text-sm font-medium">
          <input
            id={recordId}
            type="checkbox"
            {...state.form.register('record')}
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
