import {
  peopleCalls,
  LANGUAGES,
  REMINDER_MINUTES_MAX,
  UpdateProfileInputSchema,
  type Language,
  type Profile,
} from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import { Button } from '../../components/button';
import { Panel, SelectField } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { api } from '../../lib/api';
import { LANGUAGE_NAMES } from '../../lib/language-names';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useApplyProfile } from './use-profile';

function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', current, ...known])].sort((a, b) =>
    a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b),
  );
}

const FormSchema = UpdateProfileInputSchema.pick({
  time_zone: true,
  default_meeting_password: true,
  reminder_minutes: true,
})
  .required()
  // A stored language this build does not offer is left as it is rather than refused.
  .extend({ language: UpdateProfileInputSchema.shape.language.catch(undefined) });

/** Language, time zone and what a new meeting starts with. The page remounts it when these change. */
export function PreferencesSection({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('profile');
  const apply = useApplyProfile();
  const form = useSchemaForm(FormSchema, {
    defaultValues: {
      language: profile.language as Language,
      time_zone: profile.time_zone,
      default_meeting_password: profile.default_meeting_password,
      reminder_minutes: String(profile.reminder_minutes),
    },
  });
  const timeZone = useWatch({ control: form.control, name: 'time_zone' });
  const zones = useMemo(() => timeZones(profile.time_zone), [profile.time_zone]);
  const detected = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const save = useMutation({
    mutationFn: (values: z.output<typeof FormSchema>) => api.call(peopleCalls.updateProfile, values),
    onSuccess: (body) => {
      toast.success(body.message);
      apply(body.data.data);
      if (body.data.data.language !== i18n.resolvedLanguage) void i18n.changeLanguage(body.data.data.language);
    },
  });

  return (
    <Panel title={t('preferences.title')} description={t('preferences.subtitle')}>
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={t('preferences.language')}
            {...form.register('language')}
            options={LANGUAGES.map((value: Language) => ({ value, label: LANGUAGE_NAMES[value] }))}
          />
          <SelectField
            label={t('preferences.time_zone')}
            {...form.register('time_zone')}
            hint={
              detected && detected !== timeZone ? (
                <button
                  type="button"
                  className="underline"
                  onClick={() => form.setValue('time_zone', detected, { shouldDirty: true })}
                >
                  {t('preferences.use_detected', { zone: detected })}
                </button>
              ) : undefined
            }
            options={zones.map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') }))}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('preferences.reminder')}
            type="number"
            min={0}
            max={REMINDER_MINUTES_MAX}
            inputMode="numeric"
            hint={t('preferences.reminder_hint')}
            error={
              form.formState.errors.reminder_minutes && t('preferences.reminder_error', { max: REMINDER_MINUTES_MAX })
            }
            {...form.register('reminder_minutes')}
          />
          <label className="flex items-start gap-3 pt-7 text-sm text-slate-800 dark:text-slate-200">
            <input
              type="checkbox"
              {...form.register('default_meeting_password')}
              className="mt-0.5 size-4 rounded border-slate-300 text-primary-600"
            />
            <span>
              <span className="font-medium">{t('preferences.meeting_password')}</span>
              <span className="block text-xs text-slate-600 dark:text-slate-400">
                {t('preferences.meeting_password_hint')}
              </span>
            </span>
          </label>
        </div>
        <div className="flex justify-end">
          <Button type="submit" isLoading={save.isPending}>
            {t('actions.save')}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
