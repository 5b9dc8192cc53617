import { useTranslation } from 'react-i18next';

/** The recording of an ended broadcast, in the same place the live picture was; the browser's controls seek. */
export function ReplayPlayer({ url, title }: { url: string; title: string }) {
  const { t } = useTranslation('player');
  return (
    <div role="region" aria-label={t('replay_label', { title })} className="overflow-hidden rounded-xl bg-black">
      <video
        data-testid="replay-video"
        className="aspect-video w-full"
        src={url}
        controls
        preload="metadata"
        playsInline
      />
      <p className="bg-black/80 px-3 py-1 text-xs text-white/85">{t('replay_note')}</p>
    </div>
  );
}
