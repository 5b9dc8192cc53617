import { peopleCalls, PasswordSchema, type Profile } from '@meetcast/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SIGN_IN_METHODS_QUERY_KEY } from '../auth';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { Panel } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { api } from '../../lib/api';
import { PROFILE_KEY } from './use-profile';
import { SESSIONS_KEY } from './sessions-section';

type Problem = 'current' | 'password' | 'confirm';

/** Change the password (or set a first one after external sign-in); every other session ends. */
export function PasswordSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problems, setProblems] = useState<Problem[]>([]);
  const change = useMutation({
    mutationFn: () =>
      api.call(peopleCalls.changePassword, { current_password: profile.has_password ? current : undefined, password }),
    onSuccess: (body) => {
      toast.success(body.message);
      setCurrent('');
      setPassword('');
      setConfirmation('');
      void queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
      void queryClient.invalidateQueries({ queryKey: SIGN_IN_METHODS_QUERY_KEY });
    },
  });
  return (
    <Panel
      title={profile.has_password ? t('password.title') : t('password.set_title')}
      description={profile.has_password ? t('password.subtitle') : t('password.set_subtitle')}
    >
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          const found: Problem[] = [];
          if (profile.has_password && !current) found.push('current');
          if (!PasswordSchema.safeParse(password).success) found.push('password');
          if (password !== confirmation) found.push('confirm');
          setProblems(found);
          if (found.length === 0) change.mutate();
        }}
      >
        {profile.has_password && (
          <TextField
            label={t('password.current')}
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(event) => setCurrent(event.target.value)}
            error={problems.includes('current') ? t('password.current_error') : undefined}
          />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('password.new')}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            hint={t('password.rules')}
            error={problems.includes('password') ? t('password.rules') : undefined}
          />
          <TextField
            label={t('password.confirm')}
            type="password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
            error={problems.includes('confirm') ? t('password.mismatch') : undefined}
          />
        </div>
        <div className="flex justify-end">
          <Button type="submit" isLoading={change.isPending}>
            {profile.has_password ? t('password.submit') : t('password.set_submit')}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
