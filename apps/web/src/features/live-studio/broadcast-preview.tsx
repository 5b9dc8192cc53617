import { streamingCalls } from '@meetcast/contracts';
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { api } from '../../lib/api';
import { watchOverWebRtc, type WebRtcWatch } from '../../lib/janus-watch';

/** After a lost or refused watch (the mountpoint is made a moment after the broadcast starts), try again. */
const RETRY_MS = 2000;

type PreviewState = 'connecting' | 'playing';

/**
 * Plays the running broadcast's encoded output in the studio (ADR 047): the same mountpoint the
 * public watches, through the viewers' proxy with a preview grant only the host and co-hosts get,
 * so what is shown here is what the destinations receive, with no second encode. A lost watch is
 * started again with a fresh grant for as long as the broadcast runs.
 */
function usePreviewStream(meetId: string, video: RefObject<HTMLVideoElement | null>) {
  const [state, setState] = useState<PreviewState>('connecting');
  useEffect(() => {
    let isStopped = false;
    const element = video.current;
    let watch: WebRtcWatch | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const again = () => {
      watch?.close();
      watch = undefined;
      if (isStopped) return;
      setState('connecting');
      clearTimeout(retry);
      retry = setTimeout(start, RETRY_MS);
    };
    const show = (stream: MediaStream) => {
      if (!element || isStopped) return;
      if (element.srcObject !== stream) element.srcObject = stream;
      void element.play().catch(() => undefined);
      setState('playing');
    };
    const start = () => {
      void (async () => {
        const access = (await api.call(streamingCalls.getBroadcastPreview, { meetId })).data.data;
        if (isStopped) return;
        const opened = await watchOverWebRtc(access, show, again);
        if (isStopped) opened.close();
        else watch = opened;
      })().catch(again);
    };
    start();
    return () => {
      isStopped = true;
      clearTimeout(retry);
      watch?.close();
      if (element) element.srcObject = null;
    };
  }, [meetId, video]);
  return state;
}

/** The studio's "Preview": the broadcast as sent, muted at first (the host hears the room already). */
export function BroadcastPreview({ meetId }: { meetId: string }) {
  const { t } = useTranslation('streaming');
  const video = useRef<HTMLVideoElement>(null);
  const [isMuted, setIsMuted] = useState(true);
  const state = usePreviewStream(meetId, video);
  const statusId = useId();

  return (
    <div className="space-y-2">
      <div className="relative aspect-video overflow-hidden rounded-lg bg-slate-900 ring-1 ring-slate-200 dark:ring-slate-700">
        <video
          ref={video}
          className="size-full object-contain"
          aria-label={t('preview.video_label')}
          aria-describedby={statusId}
          data-state={state}
          autoPlay
          playsInline
          muted={isMuted}
        />
        {state === 'connecting' && (
          <p className="absolute inset-0 flex items-center justify-center p-3 text-center text-sm text-slate-200">
            {t('preview.connecting')}
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id={statusId} className="text-xs text-slate-600 dark:text-slate-400">
          {t('preview.hint')}
        </p>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => setIsMuted((muted) => !muted)}
          disabled={state !== 'playing'}
        >
          {isMuted ? t('preview.unmute') : t('preview.mute')}
        </Button>
      </div>
    </div>
  );
}
