import { adminCalls, ROLE } from '@meetcast/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { Spinner } from '../../components/spinner';
import { useCurrentUser } from '../session';
import { useAdminAction, useAdminQuery } from './admin-api';
import { useFormat } from './format';
import { Badge, STATUS_TONES, type PendingConfirmation } from './parts';

interface UserDetailDialogProps {
  userId: number | null;
  onClose: () => void;
  confirm: (pending: PendingConfirmation) => void;
}

/** One user: their details, meetings and channel, and every change an administrator can make. */
export function UserDetailDialog({ userId, onClose, confirm }: UserDetailDialogProps) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const me = useCurrentUser();
  const { data, isLoading } = useAdminQuery(adminCalls.getUser, { id: userId ?? 0 }, userId !== null);
  const updateRole = useAdminAction(adminCalls.updateUserRole);
  const disable = useAdminAction(adminCalls.disableUsers);
  const enable = useAdminAction(adminCalls.enableUsers);
  const sendReset = useAdminAction(adminCalls.sendPasswordReset);
  const remove = useAdminAction(adminCalls.deleteUsers);
  const detail = userId !== null && data?.data.data.user.id === userId ? data.data.data : undefined;
  const user = detail?.user;
  const isMe = user?.id === me?.id;
  const name = user?.username ?? '';

  const ask = (kind: 'promote' | 'demote' | 'disable' | 'enable' | 'reset' | 'delete', run: () => Promise<unknown>) =>
    confirm({
      title: t(`user.confirm.${kind}_title`, { name }),
      text: t(`user.confirm.${kind}_text`, { name, email: user?.email ?? '' }),
      confirmLabel: t(`user.actions.${kind}`),
      isDanger: kind === 'delete' || kind === 'disable' || kind === 'demote',
      onConfirm: async () => {
        await run();
        if (kind === 'delete') onClose();
      },
    });

  return (
    <Dialog
      open={userId !== null}
      onOpenChange={(open) => !open && onClose()}
      title={user ? user.username : t('user.title')}
      description={user?.email}
      className="max-w-2xl"
    >
      {isLoading || !detail || !user ? (
        <div className="flex justify-center py-8">
          <Spinner label={t('table.loading')} />
        </div>
      ) : (
        <div className="space-y-6">
          <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
            <Fact label={t('users.columns.role')}>
              <Badge tone={user.role_id === ROLE.admin ? 'violet' : 'slate'}>
                {t(user.role_id === ROLE.admin ? 'roles.admin' : 'roles.user')}
              </Badge>
            </Fact>
            <Fact label={t('columns.status')}>
              <Badge tone={STATUS_TONES[user.status] ?? 'slate'}>{t(`user_status.${user.status}`)}</Badge>
            </Fact>
            <Fact label={t('users.columns.joined')}>{format.dateTime(user.created_at)}</Fact>
            <Fact label={t('user.sessions')}>{format.number(detail.active_sessions)}</Fact>
            <Fact label={t('users.columns.meetings')}>{format.number(user.meetings_count)}</Fact>
            <Fact label={t('columns.id')}>{user.id}</Fact>
          </dl>

          <section>
            <h3 className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">{t('user.channel')}</h3>
            {detail.channel ? (
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {detail.channel.name} <span className="text-slate-500">/{detail.channel.slug}</span>{' '}
                {detail.channel.is_hidden && <Badge tone="amber">{t('channels.hidden')}</Badge>}{' '}
                <span className="text-xs text-slate-500">
                  {t('user.followers', { total: format.number(detail.channel.followers) })}
                </span>
              </p>
            ) : (
              <p className="text-sm text-slate-600 dark:text-slate-400">{t('user.no_channel')}</p>
            )}
          </section>

          <section>
            <h3 className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">{t('user.meetings')}</h3>
            {detail.meetings.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">{t('user.no_meetings')}</p>
            ) : (
              <ul className="max-h-48 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-700">
                {detail.meetings.map((meeting) => (
                  <li key={meeting.id} className="flex items-center justify-between gap-3 px-3 py-2">
                    <span dir="auto" className="min-w-0 truncate">
                      {meeting.name}
                    </span>
                    <span className="flex shrink-0 items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
                      {format.dateTime(meeting.start_time)}
                      <Badge tone={STATUS_TONES[meeting.state] ?? 'slate'}>{t(`meeting_state.${meeting.state}`)}</Badge>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-4 dark:border-slate-700">
            {user.role_id === ROLE.admin ? (
              <Button
                size="sm"
                variant="secondary"
                disabled={isMe}
                title={isMe ? t('user.own_role') : undefined}
                onClick={() => ask('demote', () => updateRole.mutateAsync({ id: user.id, role_id: ROLE.user }))}
              >
                {t('user.actions.demote')}
              </Button>
            ) : (
              <Button
                size="sm"
                variant="secondary"
                onClick={() => ask('promote', () => updateRole.mutateAsync({ id: user.id, role_id: ROLE.admin }))}
              >
                {t('user.actions.promote')}
              </Button>
            )}
            {user.status === 'disabled' ? (
              <Button
                size="sm"
                variant="secondary"
                onClick={() => ask('enable', () => enable.mutateAsync({ ids: user.id }))}
              >
                {t('user.actions.enable')}
              </Button>
            ) : (
              <Button
                size="sm"
                variant="secondary"
                disabled={isMe}
                onClick={() => ask('disable', () => disable.mutateAsync({ ids: user.id }))}
              >
                {t('user.actions.disable')}
              </Button>
            )}
            <Button
              size="sm"
              variant="secondary"
              disabled={user.status === 'disabled'}
              onClick={() => ask('reset', () => sendReset.mutateAsync({ id: user.id }))}
            >
              {t('user.actions.reset')}
            </Button>
            <Button
              size="sm"
              variant="danger"
              onClick={() => ask('delete', () => remove.mutateAsync({ ids: user.id }))}
            >
              {t('user.actions.delete')}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5 text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}
