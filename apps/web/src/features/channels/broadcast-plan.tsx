import { streamingCalls, type BroadcastPlan, type DestinationRequest } from '@meetcast/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dialog, DialogClose } from '../../components/dialog';
import { api } from '../../lib/api';
import { GoLivePlanFields, useGoLivePlan } from '../live-studio';
import { CHANNELS_KEY } from './use-channels';

/** What set-broadcast-plan.php keeps: where the meeting goes live by itself, and whether it is recorded. */
type PlanToSave = { destinations: DestinationRequest[]; record: 0 | 1 };

const planKey = (meetId: string) => [...CHANNELS_KEY, 'plan', meetId] as const;

function useBroadcastPlan(meetId: string) {
  return useQuery({
    queryKey: planKey(meetId),
    queryFn: async ({ signal }) => (await api.call(streamingCalls.getBroadcastPlan, { meetId }, { signal })).data.data,
  });
}

/** Saves the plan; nothing planned removes it (the server's set-broadcast-plan.php does both). */
function useSavePlan(meetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: PlanToSave) =>
      api.call(streamingCalls.setBroadcastPlan, {
        meetId,
        destinations: plan.destinations,
        record: plan.record,
      }),
    onSuccess: (body) => {
      toast.success(body.message);
      queryClient.setQueryData(planKey(meetId), body.data.data);
    },
  });
}

/**
 * A scheduled broadcast's "go live by itself" plan on My Channel: where it goes and whether it is
 * recorded, with Change and Remove (or Plan going live when it has none).
 */
export function PlannedGoLive({ meetId, meetingTitle }: { meetId: string; meetingTitle: string }) {
  const { t, i18n } = useTranslation('channels');
  const plan = useBroadcastPlan(meetId);
  const save = useSavePlan(meetId);
  const [isEditing, setIsEditing] = useState(false);
  const [isRemoving, setIsRemoving] = useState(false);
  if (!plan.isSuccess) return null;
  const current = plan.data;
  const names = (current?.destinations ?? []).map((destination) =>
    destination.status === 'connected' ? destination.name : t('plan.reconnect', { name: destination.name }),
  );
  const list = new Intl.ListFormat(i18n.resolvedLanguage ?? 'en', { type: 'conjunction' }).format(names);
  return (
    <div className="mt-1 space-y-1 text-sm text-slate-600 dark:text-slate-400">
      {current && (
        <p>
          {current.started
            ? t('plan.started')
            : names.length === 0
              ? t('plan.record_only')
              : `${t('plan.to', { list })}${current.record ? ` ${t('plan.recorded')}` : ''}`}
        </p>
      )}
      {!current?.started && (
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => setIsEditing(true)}>
            {current ? t('plan.change') : t('plan.add')}
          </Button>
          {current && (
            <Button variant="secondary" size="sm" onClick={() => setIsRemoving(true)}>
              {t('plan.remove')}
            </Button>
          )}
        </div>
      )}
      <Dialog
        open={isEditing}
        onOpenChange={setIsEditing}
        title={t('schedule.plan_title')}
        description={t('schedule.plan_hint')}
      >
        {isEditing && (
          <PlanForm
            meetingTitle={meetingTitle}
            saved={current}
            isSaving={save.isPending}
            onSave={(next) => save.mutate(next, { onSuccess: () => setIsEditing(false) })}
          />
        )}
      </Dialog>
      <ConfirmDialog
        open={isRemoving}
        title={t('plan.remove_title')}
        text={t('plan.remove_text', { name: meetingTitle })}
        confirmLabel={t('plan.remove')}
        isBusy={save.isPending}
        onCancel={() => setIsRemoving(false)}
        onConfirm={() => save.mutate({ destinations: [], record: 0 }, { onSuccess: () => setIsRemoving(false) })}
      />
    </div>
  );
}

/** Lives only while the dialog is open, so each opening starts from the saved plan. */
function PlanForm({
  meetingTitle,
  saved,
  isSaving,
  onSave,
}: {
  meetingTitle: string;
  saved: BroadcastPlan | null;
  isSaving: boolean;
  onSave(plan: PlanToSave): void;
}) {
  const { t } = useTranslation('channels');
  const goLive = useGoLivePlan(meetingTitle, saved ?? undefined);
  // Nothing chosen and no recording saves an empty plan, which removes it.
  const onSubmit = goLive.form.handleSubmit(({ destinations, record }) =>
    onSave({ destinations, record: record ? 1 : 0 }),
  );
  return (
    <form noValidate className="space-y-4" onSubmit={(event) => void onSubmit(event)}>
      <GoLivePlanFields state={goLive} legend={t('schedule.plan_where')} />
      <div className="flex justify-end gap-2">
        <DialogClose>{t('actions.cancel')}</DialogClose>
        <Button type="submit" isLoading={isSaving}>
          {t('plan.save')}
        </Button>
      </div>
    </form>
  );
}
