import { peopleCalls } from '@meetcast/contracts';
import { MonitorIcon } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { Panel } from '../../components/form-controls';
import { Spinner } from '../../components/spinner';
import { api } from '../../lib/api';
import { useSession } from '../session';
import { describeDevice } from './device-name';

export const SESSIONS_KEY = ['sessions'] as const;

/** Where the account is signed in, with device and last use; each session can be signed out. */
export function SessionsSection() {
  const { t, i18n } = useTranslation('profile');
  const queryClient = useQueryClient();
  const { signOut } = useSession();
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: async ({ signal }) => (await api.call(peopleCalls.getSessions, {}, { signal })).data.data,
    staleTime: 0,
  });
  const revoke = useMutation({
    mutationFn: (session: { id: number; is_current: boolean }) =>
      api.call(peopleCalls.revokeSession, { id: session.id }),
    onSuccess: (body, session) => {
      if (session.is_current) {
        void signOut();
        return;
      }
      toast.success(body.message);
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
  });
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Panel title={t('sessions.title')} description={t('sessions.subtitle')}>
      {sessions.isPending && <Spinner className="size-5 text-primary-600" label={t('sessions.loading')} />}
      {sessions.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {sessions.error.message}
        </p>
      )}
      {sessions.data && (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {sessions.data.map((session) => {
            const device = describeDevice(session.user_agent);
            const name = device ? t('sessions.device', device) : t('sessions.unknown_device');
            return (
              <li key={session.id} className="flex flex-wrap items-center gap-3 py-3">
                <MonitorIcon className="size-5 shrink-0 text-slate-500" />
                <div className="min-w-0 flex-1">
                  <p className="font-medium text-slate-900 dark:text-white">
                    {name}
                    {session.is_current && (
                      <span className="ms-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
                        {t('sessions.current')}
                      </span>
                    )}
                  </p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    {t('sessions.details', {
                      last: format.format(session.last_used_at * 1000),
                      since: format.format(session.created_at * 1000),
                      address: session.ip_address ?? '—',
                    })}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  isLoading={revoke.isPending && revoke.variables.id === session.id}
                  onClick={() => revoke.mutate(session)}
                  aria-label={t('sessions.revoke_named', { name })}
                >
                  {t('sessions.revoke')}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}
