import { TvIcon } from 'lucide-react';
import type { ComponentType, ReactNode, SVGProps } from 'react';

/** A whole page that only says something (unavailable, forbidden, nothing yet), with its own h1. */
export function ChannelMessage({
  title,
  text,
  action,
  icon: Icon = TvIcon,
}: {
  title: string;
  text: ReactNode;
  action?: ReactNode;
  icon?: ComponentType<SVGProps<SVGSVGElement>>;
}) {
  return (
    <div className="flex flex-col items-center justify-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center dark:border-slate-700 dark:bg-slate-900/50">
      <span className="flex size-12 items-center justify-center rounded-full bg-primary-50 text-primary-700 dark:bg-primary-950 dark:text-primary-300">
        <Icon className="size-6" />
      </span>
      <h1 className="mt-4 text-xl font-bold text-slate-900 dark:text-white">{title}</h1>
      <p className="mt-1 max-w-md text-sm text-slate-600 dark:text-slate-400">{text}</p>
      {action && <div className="mt-6">{action}</div>}
    </div>
  );
}
