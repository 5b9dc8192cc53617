import { useEffect, useRef } from 'react';
import { cn } from '../../lib/cn';

/**
 * A <video> bound to a MediaStream (or a single track); muted for our own preview. The picture is
 * always shown whole (letterboxed on the tile's background), so nobody's head is cut off; the
 * video's ratio is reported for the grid to plan with.
 */
export function VideoView({
  stream,
  track,
  isMuted = false,
  isMirrored = false,
  className,
  sinkId,
  label,
  onAspect,
}: {
  stream?: MediaStream;
  track?: MediaStreamTrack;
  isMuted?: boolean;
  isMirrored?: boolean;
  onAspect?: (ratio: number) => void;
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
    // No choice (or a speaker that was unplugged) goes back to the system's default output: ''.
    if (element?.setSinkId) void element.setSinkId(sinkId ?? '').catch(() => undefined);
  }, [sinkId]);
  useEffect(() => {
    const element = ref.current;
    if (!element || !onAspect) return undefined;
    const report = () => {
      if (element.videoWidth && element.videoHeight) onAspect(element.videoWidth / element.videoHeight);
    };
    report();
    element.addEventListener('resize', report);
    return () => element.removeEventListener('resize', report);
  }, [onAspect]);
  return (
    <video
      ref={ref}
      autoPlay
      playsInline
      muted={isMuted}
      aria-label={label}
      className={cn('size-full object-contain', isMirrored && '-scale-x-100', className)}
    />
  );
}
