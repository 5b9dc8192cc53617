import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/spinner';
import { LiveStudio } from './live-studio';
import type { StudioRoom } from './stage-list';

/** The room's "Live" side panel, for the host and co-hosts; its body scrolls, its heading stays. */
export function LivePanel(props: { meetId: string; meetingTitle: string; canStart: boolean; room?: StudioRoom }) {
  return (
    <Suspense
      fallback={
        <div className="flex h-full items-center justify-center">
          <Spinner className="size-6" />
        </div>
      }
    >
      <LivePanelInner {...props} />
    </Suspense>
  );
}

function LivePanelInner({
  meetId,
  meetingTitle,
  canStart,
  room,
}: {
  meetId: string;
  meetingTitle: string;
  canStart: boolean;
  room?: StudioRoom;
}) {
  const { t } = useTranslation('streaming');
  return (
    <section aria-label={t('live.panel_title')} className="flex h-full min-h-0 flex-col">
      <h2 className="border-b border-slate-200 px-4 py-3 font-semibold dark:border-slate-700">
        {t('live.panel_title')}
      </h2>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4">
        <LiveStudio meetId={meetId} meetingTitle={meetingTitle} canStart={canStart} room={room} />
      </div>
    </section>
  );
}
