import { RadioIcon, XIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { PageSpinner } from '../../components/spinner';
import { PlatformCard } from './platform-card';
import { RtmpCard } from './rtmp-card';
import { useStreamConnections } from './streaming-api';
import { useStreamCallback } from './use-stream-callback';

/**
 * /connect-stream: where YouTube, Twitch and RTMP addresses are connected, and the page the
 * providers send the browser back to (use-stream-callback.ts handles that answer).
 */
export default function ConnectStreamPage() {
  const { t } = useTranslation('streaming');
  const callback = useStreamCallback();
  const connections = useStreamConnections();
  const all = connections.data ?? [];
  const ofPlatform = (platform: string) => all.filter((connection) => connection.platform === platform);

  return (
    <section>
      <PageHeader title={t('title')} description={t('subtitle')} />
      {callback.failure && (
        <div
          role="alert"
          className="mb-6 flex items-start justify-between gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200"
        >
          <div>
            <p className="font-semibold">{t('callback.failed_title')}</p>
            <p className="mt-1">{callback.failure}</p>
          </div>
          <button
            type="button"
            onClick={callback.dismissFailure}
            aria-label={t('actions.dismiss')}
            className="-m-1 inline-flex size-8 shrink-0 items-center justify-center rounded-full hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-primary-500 dark:hover:bg-red-500/20"
          >
            <XIcon className="size-4" />
          </button>
        </div>
      )}
      {callback.isFinishing || connections.isPending ? (
        <PageSpinner label={callback.isFinishing ? t('callback.finishing') : t('loading')} />
      ) : connections.isError ? (
        <EmptyState
          title={t('load_failed')}
          text={connections.error.message}
          icon={RadioIcon}
          action={
            <Button variant="secondary" onClick={() => void connections.refetch()} isLoading={connections.isFetching}>
              {t('actions.retry')}
            </Button>
          }
        />
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <PlatformCard platform="youtube" connections={ofPlatform('youtube')} />
          <PlatformCard platform="twitch" connections={ofPlatform('twitch')} />
          <div className="lg:col-span-2">
            <RtmpCard connections={ofPlatform('rtmp')} />
          </div>
        </div>
      )}
    </section>
  );
}
