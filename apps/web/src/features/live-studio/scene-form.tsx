import { BROADCAST_SCENES, STREAMING_LIMITS, type LiveBroadcast } from '@meetcast/contracts';
import { useState } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { useSchemaForm, type SchemaForm } from '../../lib/use-schema-form';
import { useSetScene } from './live-api';
import { MAX_COUNTDOWN_MINUTES, SceneFormSchema, sceneFormValues } from './scene-request';

export type SceneFormState = SchemaForm<typeof SceneFormSchema>;

/** The scene form, starting from the scene on air (or the people, before going live). */
export function useSceneForm(overlay?: LiveBroadcast['overlay']): SceneFormState {
  // The minutes still to go are read once, when the form opens.
  const [defaultValues] = useState(() => sceneFormValues(overlay, Date.now()));
  return useSchemaForm(SceneFormSchema, { defaultValues });
}

/**
 * What the stream shows (ADR 042): one labelled toggle button per scene, the message and the
 * countdown of a holding screen. Fields only: the Go live form and the live SceneForm hold them.
 */
export function SceneFields({ form }: { form: SceneFormState }) {
  const { t } = useTranslation('streaming');
  const { field } = useController({ control: form.control, name: 'scene' });
  const errors = form.formState.errors;
  const isHolding = field.value !== 'live';
  return (
    <div className="space-y-3">
      <div className="space-y-2">
        <div role="group" aria-label={t('scene.title')} className="flex flex-wrap gap-2">
          {BROADCAST_SCENES.map((scene) => (
            <Button
              key={scene}
              size="sm"
              variant={field.value === scene ? 'primary' : 'secondary'}
              aria-pressed={field.value === scene}
              onClick={() => field.onChange(scene)}
            >
              {t(`scene.${scene}`)}
            </Button>
          ))}
        </div>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {t(isHolding ? 'scene.hint_holding' : 'scene.hint_live')}
        </p>
      </div>
      {isHolding && (
        <>
          <TextField
            label={t('scene.message')}
            dir="auto"
            maxLength={STREAMING_LIMITS.sceneMessage}
            error={errors.scene_message && t('scene.errors.message', { max: STREAMING_LIMITS.sceneMessage })}
            {...form.register('scene_message')}
          />
          <TextField
            label={t('scene.countdown')}
            hint={t('scene.countdown_hint', { max: MAX_COUNTDOWN_MINUTES })}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_COUNTDOWN_MINUTES}
            step={1}
            error={errors.countdown_minutes && t('scene.errors.countdown', { max: MAX_COUNTDOWN_MINUTES })}
            {...form.register('countdown_minutes')}
          />
        </>
      )}
    </div>
  );
}

/** The scene of a running broadcast, changed live. */
export function SceneForm({ broadcast }: { broadcast: LiveBroadcast }) {
  const { t } = useTranslation('streaming');
  const setScene = useSetScene(broadcast.url_slug);
  const form = useSceneForm(broadcast.overlay);
  const onAir = broadcast.overlay.scene;
  const onSubmit = form.handleSubmit((values) => setScene.mutate(values));
  return (
    <form noValidate aria-label={t('scene.title')} className="space-y-3" onSubmit={(event) => void onSubmit(event)}>
      <SceneFields form={form} />
      <div className="flex flex-wrap items-center justify-end gap-3">
        <p role="status" className="me-auto text-xs text-slate-600 dark:text-slate-400">
          {t('scene.on_air', { scene: t(`scene.${onAir}`) })}
        </p>
        <Button size="sm" type="submit" isLoading={setScene.isPending}>
          {t('scene.apply')}
        </Button>
      </div>
    </form>
  );
}
