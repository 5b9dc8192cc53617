import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useSession } from '../session';

/** The session could not be checked because the server did not answer; the cookie is kept. */
export function ServerUnreachablePage({ message }: { message: string }) {
  const { t } = useTranslation('common');
  const { retry } = useSession();
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="max-w-md rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-xl font-semibold">{t('unreachable.title')}</h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{message}</p>
        <Button className="mt-6" onClick={retry}>
          {t('actions.try_again')}
        </Button>
      </div>
    </main>
  );
}
