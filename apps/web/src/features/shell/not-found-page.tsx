import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

/** The router's 404 page for every path that matches no route. */
export function NotFoundPage() {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  return (
    <section className="mx-auto flex max-w-lg flex-1 flex-col items-center justify-center px-6 py-16 text-center">
      <p className="text-sm font-semibold tracking-widest text-primary-700 uppercase dark:text-primary-300">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">{t('not_found.title')}</h1>
      <p className="mt-4 text-slate-600 dark:text-slate-400">{t('not_found.text', { path: pathname })}</p>
      <Link
        to="/"
        className="mt-8 inline-flex h-10 items-center rounded-lg bg-primary-600 px-4 text-sm font-semibold text-white shadow-sm hover:bg-primary-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:bg-primary-500 dark:text-slate-950 dark:hover:bg-primary-400"
      >
        {t('not_found.home')}
      </Link>
    </section>
  );
}
