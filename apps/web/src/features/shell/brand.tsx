import { Link } from 'react-router';

export function Brand({ to = '/' }: { to?: string }) {
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-2 rounded-md text-lg font-bold tracking-tight text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:text-white"
    >
      <img src="/favicon.svg" alt="" className="size-8" width={32} height={32} />
      <span>Meetcast</span>
    </Link>
  );
}
