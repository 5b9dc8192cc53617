import { cn } from '../lib/cn';

export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      className={cn(
        'inline-block animate-spin rounded-full border-2 border-current border-e-transparent align-middle',
        className ?? 'size-5',
      )}
    />
  );
}

/** Centered spinner for a page or a panel that is still loading. */
export function PageSpinner({ label }: { label: string }) {
  return (
    <div className="flex min-h-[40vh] items-center justify-center text-primary-600 dark:text-primary-400">
      <Spinner className="size-8" label={label} />
    </div>
  );
}
