import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { RecordingDialog } from './recording-dialog';
import { useRecordings } from './streaming-api';

/**
 * "Recording" on a meeting that has one (matched by its address), opening the player. Nothing is
 * shown for a meeting without a recording, or while the list is unavailable.
 */
export function RecordingButton({ slug }: { slug: string }) {
  return (
    <Suspense fallback={null}>
      <RecordingButtonInner slug={slug} />
    </Suspense>
  );
}

function RecordingButtonInner({ slug }: { slug: string }) {
  const { t } = useTranslation('streaming');
  const recordings = useRecordings();
  const [isOpen, setIsOpen] = useState(false);
  const matching = useMemo(
    () =>
      (recordings.data ?? [])
        .filter((recording) => recording.url_slug === slug)
        .sort((a, b) => b.created_at - a.created_at),
    [recordings.data, slug],
  );
  if (matching.length === 0) return null;
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setIsOpen(true)}>
        {matching.length === 1 ? t('recordings.open') : t('recordings.open_many', { number: matching.length })}
      </Button>
      <RecordingDialog recordings={matching} open={isOpen} onOpenChange={setIsOpen} />
    </>
  );
}
