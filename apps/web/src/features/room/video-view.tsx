import { useEffect, useRef } from 'react';
import { cn } from '../../lib/cn';

/** A <video> bound to a MediaStream (or a single track); muted for our own preview. */
export function VideoView({
  stream,
  track,
  isMuted = false,
  isMirrored = false,
  isContained = false,
  className,
  sinkId,
  label,
}: {
  stream?: MediaStream;
  track?: MediaStreamTrack;
  isMuted?: boolean;
  isMirrored?: boolean;
  isContained?: boolean;
  className?: string;
  sinkId?: string;
  label?: string;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const source = stream ?? (track ? new MediaStream([track]) : null);
    if (element.srcObject !== source) element.srcObject = source;
    if (source) void element.play().catch(() => undefined);
  }, [stream, track]);
  useEffect(() => {
    const element = ref.current as (HTMLVideoElement & { setSinkId?: (id: string) => Promise<void> }) | null;
    if (element?.setSinkId && sinkId) void element.setSinkId(sinkId).catch(() => undefined);
  }, [sinkId]);
  return (
    <video
      ref={ref}
      autoPlay
      playsInline
      muted={isMuted}
      aria-label={label}
      className={cn(
        'size-full bg-slate-900',
        isContained ? 'object-contain' : 'object-cover',
        isMirrored && '-scale-x-100',
        className,
      )}
    />
  );
}
