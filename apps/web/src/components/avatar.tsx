import { useState } from 'react';
import { cn } from '../lib/cn';
import { imageUrl } from '../lib/image-url';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return (
    letters
      .map((part) => Array.from(part ?? '')[0] ?? '')
      .join('')
      .toUpperCase() || '?'
  );
}

/** The user's picture joined to the image base, or their initials when there is none. */
export function Avatar({
  name,
  path,
  className,
}: {
  name: string;
  path: string | null | undefined;
  className?: string;
}) {
  const [hasFailed, setHasFailed] = useState(false);
  const src = imageUrl(path);
  const classes = cn(
    'inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full',
    className ?? 'size-9',
  );
  if (src && !hasFailed) {
    return <img src={src} alt="" className={cn(classes, 'object-cover')} onError={() => setHasFailed(true)} />;
  }
  return (
    <span
      aria-hidden="true"
      className={cn(
        classes,
        'bg-primary-100 text-sm font-semibold text-primary-800 dark:bg-primary-900 dark:text-primary-100',
      )}
    >
      {initials(name)}
    </span>
  );
}
