import type { RoomErrorReason } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';

/** Full-page states of a room: waiting in the lobby, refused, removed, ended, unknown, failed. */
export function RoomNotice({
  kind,
  meetingName,
  reason,
  message,
  onLeave,
}: {
  kind: 'lobby' | 'denied' | 'removed' | 'ended' | 'error' | 'unavailable' | 'left';
  meetingName?: string;
  reason?: RoomErrorReason;
  message?: string;
  onLeave?: () => void;
}) {
  const { t } = useTranslation('room');
  return (
    <div
      className="mx-auto flex max-w-lg flex-col items-center gap-4 p-8 text-center"
      role={kind === 'lobby' ? 'status' : 'alert'}
    >
      {kind === 'lobby' && <Spinner className="size-8" />}
      {meetingName && <p className="text-sm text-slate-500 dark:text-slate-400">{meetingName}</p>}
      <h1 className="text-2xl font-bold text-slate-900 dark:text-white">{t(`notice.${kind}_title`)}</h1>
      <p className="text-slate-700 dark:text-slate-300">
        {message ?? (kind === 'error' && reason ? t(`errors.${reason}`) : t(`notice.${kind}_text`))}
      </p>
      <div className="flex gap-2">
        {kind === 'lobby' && onLeave && (
          <Button variant="secondary" onClick={onLeave}>
            {t('notice.leave_lobby')}
          </Button>
        )}
        {kind === 'left' && onLeave && <Button onClick={onLeave}>{t('notice.rejoin')}</Button>}
        <Link
          to="/"
          className="inline-flex h-10 items-center rounded-lg px-4 text-sm font-semibold text-primary-700 hover:underline dark:text-primary-300"
        >
          {t('notice.home')}
        </Link>
      </div>
    </div>
  );
}
