import type { OAuthStreamPlatform, StreamConnection, StreamPlatform } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { ApiError } from '../../lib/api';
import { ConnectionRow } from './connection-row';
import { PlatformMark } from './platform-icons';
import { streamingApi } from './streaming-api';
import { rememberConnectingPlatform } from './use-stream-callback';

/** The frame every platform card shares: the platform's mark and name, what it does, then its parts. */
export function StreamCard({
  platform,
  about,
  children,
}: {
  platform: StreamPlatform;
  about: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('streaming');
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-start gap-3">
        <PlatformMark platform={platform} />
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-white">
            {t(`platforms.${platform}`)}
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{about}</p>
        </div>
      </div>
      <div className="mt-4 flex flex-1 flex-col">{children}</div>
    </section>
  );
}

/**
 * YouTube or Twitch: the accounts connected, and Connect, which sends the browser to the provider's
 * consent page. A server without that platform's client answers 400 with a sentence saying so: the
 * card then shows it and offers the platform no more.
 */
export function PlatformCard({
  platform,
  connections,
}: {
  platform: OAuthStreamPlatform;
  connections: StreamConnection[];
}) {
  const { t } = useTranslation('streaming');
  const [unavailable, setUnavailable] = useState<string>();
  const [isLeaving, setIsLeaving] = useState(false);
  const start = useMutation({
    mutationFn: () => streamingApi.start(platform),
    meta: { silent: true },
    onSuccess: (body) => {
      setIsLeaving(true);
      rememberConnectingPlatform(platform);
      window.location.assign(body.data.url);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.httpStatus === 400) setUnavailable(error.message);
      else toast.error(error.message);
    },
  });
  const isBusy = start.isPending || isLeaving;
  const name = t(`platforms.${platform}`);
  return (
    <StreamCard platform={platform} about={t(`${platform}.about`)}>
      {connections.length === 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">{t('not_connected', { platform: name })}</p>
      ) : (
        <ul
          aria-label={t('connected_accounts', { platform: name })}
          className="divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800"
        >
          {connections.map((connection) => (
            <ConnectionRow
              key={connection.id}
              connection={connection}
              onReconnect={unavailable ? undefined : () => start.mutate()}
              isReconnecting={isBusy}
            />
          ))}
        </ul>
      )}
      <div className="mt-auto pt-4">
        {unavailable ? (
          <p
            role="status"
            className="rounded-lg bg-slate-100 p-3 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-300"
          >
            {unavailable}
          </p>
        ) : (
          <Button
            variant={connections.length === 0 ? 'primary' : 'secondary'}
            onClick={() => start.mutate()}
            isLoading={isBusy}
          >
            {connections.length === 0 ? t('actions.connect', { platform: name }) : t('actions.connect_another')}
          </Button>
        )}
      </div>
    </StreamCard>
  );
}
