import {
  peopleCalls,
  LANGUAGES,
  REMINDER_MINUTES_MAX,
  isLanguage,
  type Language,
  type Profile,
} from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { Panel, SelectField } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { api } from '../../lib/api';
import { LANGUAGE_NAMES } from '../../lib/language-names';
import { useApplyProfile } from './use-profile';

function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', current, ...known])].sort((a, b) =>
    a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b),
  );
}

/** Language, time zone and what a new meeting starts with. The page remounts it when these change. */
export function PreferencesSection({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('profile');
  const apply = useApplyProfile();
  const [language, setLanguage] = useState(profile.language);
  const [timeZone, setTimeZone] = useState(profile.time_zone);
  const [withPassword, setWithPassword] = useState(profile.default_meeting_password);
  const [reminder, setReminder] = useState(String(profile.reminder_minutes));
  const [reminderError, setReminderError] = useState<string | undefined>();
  const zones = useMemo(() => timeZones(profile.time_zone), [profile.time_zone]);
  const detected = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const save = useMutation({
    mutationFn: () =>
      api.call(peopleCalls.updateProfile, {
        language: isLanguage(language) ? language : undefined,
        time_zone: timeZone,
        default_meeting_password: withPassword,
        reminder_minutes: reminder,
      }),
    onSuccess: (body) => {
      toast.success(body.message);
      apply(body.data.data);
      if (body.data.data.language !== i18n.resolvedLanguage) void i18n.changeLanguage(body.data.data.language);
    },
  });

  return (
    <Panel title={t('preferences.title')} description={t('preferences.subtitle')}>
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          const minutes = Number(reminder);
          if (!/^\d+$/.test(reminder) || minutes > REMINDER_MINUTES_MAX) {
            setReminderError(t('preferences.reminder_error', { max: REMINDER_MINUTES_MAX }));
            return;
          }
          setReminderError(undefined);
          save.mutate();
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={t('preferences.language')}
            value={language}
            onChange={(event) => setLanguage(event.target.value)}
            options={LANGUAGES.map((value: Language) => ({ value, label: LANGUAGE_NAMES[value] }))}
          />
          <SelectField
            label={t('preferences.time_zone')}
            value={timeZone}
            onChange={(event) => setTimeZone(event.target.value)}
            hint={
              detected && detected !== timeZone ? (
                <button type="button" className="underline" onClick={() => setTimeZone(detected)}>
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
            value={reminder}
            hint={t('preferences.reminder_hint')}
            error={reminderError}
            onChange={(event) => setReminder(event.target.value)}
          />
          <label className="flex items-start gap-3 pt-7 text-sm text-slate-800 dark:text-slate-200">
            <input
              type="checkbox"
              checked={withPassword}
              onChange={(event) => setWithPassword(event.target.checked)}
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
