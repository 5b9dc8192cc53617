import type { StreamConnection } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ConnectionStatus, RtmpHistory, RtmpKnownStatus } from './connection-status';
import { RtmpEditDialog } from './rtmp-edit-dialog';
import { streamingApi, useRefreshStreamConnections } from './streaming-api';

/** One saved connection: its name, whether it works, and reconnect / disconnect. */
export function ConnectionRow({
  connection,
  onReconnect,
  isReconnecting = false,
}: {
  connection: StreamConnection;
  /** YouTube and Twitch only: sends the browser through the provider's consent again. */
  onReconnect?: () => void;
  isReconnecting?: boolean;
}) {
  const { t } = useTranslation('streaming');
  const refresh = useRefreshStreamConnections();
  const [isConfirming, setIsConfirming] = useState(false);
  const [isEditing, setIsEditing] = useState(false);
  const isRtmp = connection.platform === 'rtmp';
  const remove = useMutation({
    mutationFn: () => streamingApi.remove(connection.id),
    onSuccess: (body) => {
      toast.success(body.message);
      setIsConfirming(false);
      void refresh();
    },
  });
  const test = useMutation({
    mutationFn: () => streamingApi.testRtmp(connection.id),
    onSuccess: (body) => {
      // The call worked either way; what the push found is in the answer.
      if (body.data.data.last_test_result === 'worked') toast.success(body.message);
      else toast.error(body.message);
      void refresh();
    },
  });
  const platform = t(`platforms.${connection.platform}`);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span dir="auto" className="truncate font-medium text-slate-900 dark:text-white">
            {connection.name}
          </span>
          {isRtmp ? <RtmpKnownStatus connection={connection} /> : <ConnectionStatus status={connection.status} />}
        </p>
        {isRtmp && <RtmpHistory connection={connection} />}
        {!isRtmp && connection.status !== 'connected' && (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {t(`status_help.${connection.status}`, { platform })}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        {onReconnect && connection.status !== 'connected' && (
          <Button size="sm" onClick={onReconnect} isLoading={isReconnecting}>
            {t('actions.reconnect')}
          </Button>
        )}
        {isRtmp && (
          <>
            <Button
              size="sm"
              variant="secondary"
              aria-label={t('rtmp.test_name', { name: connection.name })}
              onClick={() => test.mutate()}
              isLoading={test.isPending}
            >
              {t('rtmp.test')}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              aria-label={t('rtmp.edit_name', { name: connection.name })}
              onClick={() => setIsEditing(true)}
            >
              {t('rtmp.edit')}
            </Button>
          </>
        )}
        <Button
          size="sm"
          variant="ghost"
          // The ghost look sets its own text colour; `!` lets the warning red win over it.
          className="text-red-700! dark:text-red-300!"
          aria-label={t(isRtmp ? 'actions.remove_name' : 'actions.disconnect_name', { name: connection.name })}
          onClick={() => setIsConfirming(true)}
        >
          {isRtmp ? t('actions.remove') : t('actions.disconnect')}
        </Button>
      </div>
      <ConfirmDialog
        open={isConfirming}
        title={isRtmp ? t('remove_dialog.title') : t('disconnect_dialog.title', { platform })}
        text={
          isRtmp
            ? t('remove_dialog.text', { name: connection.name })
            : t('disconnect_dialog.text', { name: connection.name, platform })
        }
        confirmLabel={isRtmp ? t('actions.remove') : t('actions.disconnect')}
        isBusy={remove.isPending}
        onCancel={() => setIsConfirming(false)}
        onConfirm={() => remove.mutate()}
      />
      {isRtmp && <RtmpEditDialog connection={connection} open={isEditing} onOpenChange={setIsEditing} />}
    </li>
  );
}
