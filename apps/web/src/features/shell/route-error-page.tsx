import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/**
 * What the router shows when a page fails to load or throws (reported by the router).
 * A failed chunk load after a new deployment is the usual cause, so reloading is offered.
 */
export function RouteErrorPage() {
  const { t } = useTranslation('common');
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : '';
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="max-w-md rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-xl font-semibold">{t('route_error.title')}</h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t('route_error.text')}</p>
        {detail && <p className="mt-2 font-mono text-xs text-slate-600 dark:text-slate-400">{detail}</p>}
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="mt-6 inline-flex h-10 items-center rounded-lg bg-primary-600 px-4 text-sm font-semibold text-white hover:bg-primary-700 dark:bg-primary-500 dark:text-slate-950"
        >
          {t('actions.reload')}
        </button>
      </div>
    </main>
  );
}
