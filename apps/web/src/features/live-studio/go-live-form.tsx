import { EyeIcon, RadioIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { GoLivePlanFields, useGoLivePlan } from './go-live-plan';
import { useStartBroadcast } from './live-api';
import { SceneFields, useSceneForm } from './scene-form';

/**
 * Before going live: which connections to stream to (with each platform's fields), whether to
 * record, the scene the stream starts on, and Go live. Recording with no destination is allowed
 * ("Start recording"). "Rehearse" starts it for the studio only (ADR 047): nothing is streamed or
 * recorded until "Go live" in the Live view.
 */
export function GoLiveForm({ meetId, meetingTitle }: { meetId: string; meetingTitle: string }) {
  const { t } = useTranslation('streaming');
  const state = useGoLivePlan(meetingTitle);
  const start = useStartBroadcast(meetId);
  // The scene the stream starts on (ADR 042), in a form of its own: the plan's fields are shared with
  // the channel's Schedule dialog, which has no scene.
  const sceneForm = useSceneForm();
  // Asked of this start only (ADR 050): the server sends 1080p30 when it can afford it, else 720p.
  const [isFullHd, setFullHd] = useState(false);
  const fullHdId = useId();
  const rehearseHintId = useId();
  const quality = isFullHd ? ('1080p30' as const) : undefined;
  const onSubmit = state.form.handleSubmit(({ destinations, record }) =>
    sceneForm.handleSubmit((scene) => start.mutate({ destinations, record: record ? 1 : 0, scene, quality }))(),
  );
  // A rehearsal (ADR 047) streams nowhere and records nothing: the destinations are chosen at "Go live".
  const onRehearse = sceneForm.handleSubmit((scene) =>
    start.mutate({ destinations: [], record: 0, scene, quality, rehearsal: 1 }),
  );

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('go_live.form')} className="space-y-5">
      <GoLivePlanFields state={state} legend={t('go_live.where')} />
      <fieldset className="space-y-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">{t('scene.start_on')}</legend>
        <SceneFields form={sceneForm} />
      </fieldset>
      <div>
        <label htmlFor={fullHdId} className="flex items-center gap-3 text-sm font-medium">
          <input
            id={fullHdId}
            type="checkbox"
            checked={isFullHd}
            onChange={(event) => setFullHd(event.target.checked)}
            aria-describedby={`${fullHdId}-hint`}
            className="size-4 accent-primary-600"
          />
          {t('go_live.full_hd')}
        </label>
        <p id={`${fullHdId}-hint`} className="mt-1 ps-7 text-xs text-slate-600 dark:text-slate-400">
          {t('go_live.full_hd_hint')}
        </p>
      </div>
      {state.isNothing && <p className="text-xs text-slate-600 dark:text-slate-400">{t('go_live.choose_something')}</p>}
      <Button type="submit" variant="danger" className="w-full" disabled={state.isNothing} isLoading={start.isPending}>
        <RadioIcon className="size-4" />
        {state.chosenCount === 0 && state.record ? t('go_live.start_recording') : t('go_live.submit')}
      </Button>
      <div>
        <Button
          type="button"
          variant="secondary"
          className="w-full"
          onClick={() => void onRehearse()}
          disabled={start.isPending}
          aria-describedby={rehearseHintId}
        >
          <EyeIcon className="size-4" />
          {t('go_live.rehearse')}
        </Button>
        <p id={rehearseHintId} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {t('go_live.rehearse_hint')}
        </p>
      </div>
    </form>
  );
}
