import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { CONNECT_PLATFORM_KEY, parseStreamCallback, type StreamCallback } from './stream-callback';
import { streamingApi, useRefreshStreamConnections } from './streaming-api';

function readStoredPlatform(): string | null {
  try {
    return sessionStorage.getItem(CONNECT_PLATFORM_KEY);
  } catch {
    return null;
  }
}

export function rememberConnectingPlatform(platform: string) {
  try {
    sessionStorage.setItem(CONNECT_PLATFORM_KEY, platform);
  } catch {
    // Without storage the answer cannot be placed; the page then says so and asks to start again.
  }
}

function forgetConnectingPlatform() {
  try {
    sessionStorage.removeItem(CONNECT_PLATFORM_KEY);
  } catch {
    // Nothing stored, nothing to forget.
  }
}

/** The answer this page load already sent (a second mount must not send the single-use state again). */
let sentCallback: StreamCallback | undefined;

/**
 * /connect-stream as the provider's return address: the answer in the query string goes to
 * finish-stream-connection once, with the platform this tab started. The address is cleaned at once
 * (a reload sends nothing) and the stored platform forgotten. Success is a toast; a failure (refused
 * consent, wrong or expired state or code) stays on the page as the server's own sentence.
 */
export function useStreamCallback() {
  const { t } = useTranslation('streaming');
  const refresh = useRefreshStreamConnections();
  const [callback] = useState(() => parseStreamCallback(window.location.search, readStoredPlatform()));
  const [isFinishing, setIsFinishing] = useState(callback.kind === 'finish');
  const [failure, setFailure] = useState<string | undefined>(() =>
    callback.kind === 'unknown-platform' ? t('callback.unknown_platform') : undefined,
  );

  useEffect(() => {
    if (callback.kind === 'none' || sentCallback === callback) return;
    sentCallback = callback;
    window.history.replaceState(window.history.state, '', window.location.pathname);
    forgetConnectingPlatform();
    if (callback.kind !== 'finish') return;
    streamingApi.finish(callback.fields).then(
      (body) => {
        const connection = body.data.data;
        toast.success(
          t('callback.connected', { platform: t(`platforms.${connection.platform}`), name: connection.name }),
        );
        void refresh();
        setIsFinishing(false);
      },
      (error: unknown) => {
        setFailure(error instanceof Error ? error.message : String(error));
        setIsFinishing(false);
      },
    );
  }, [callback, refresh, t]);

  return { isFinishing, failure, dismissFailure: () => setFailure(undefined) };
}
