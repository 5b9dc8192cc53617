import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../session';
import { ChannelDirectory } from './channel-directory';

/** `/channel`: the public directory, no sign-in needed. */
export default function PublicChannelsPage() {
  const { t } = useTranslation('channels');
  const user = useCurrentUser();
  return (
    <section className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-8">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl dark:text-white">{t('browse.title')}</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600 dark:text-slate-400">{t('browse.public_subtitle')}</p>
      <ChannelDirectory linkBase="/channel" isSignedIn={user !== undefined} />
    </section>
  );
}
