import { UserIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { PageSpinner } from '../../components/spinner';
import { SignInMethods } from '../auth';
import { AccountSection } from './account-section';
import { AvatarSection } from './avatar-section';
import { DataSection } from './data-section';
import { PasswordSection } from './password-section';
import { PreferencesSection } from './preferences-section';
import { SessionsSection } from './sessions-section';
import { useProfile } from './use-profile';

export default function ProfilePage() {
  const { t } = useTranslation('profile');
  const profile = useProfile();
  if (profile.isPending) return <PageSpinner label={t('loading')} />;
  if (profile.isError) return <EmptyState title={t('load_failed')} text={profile.error.message} icon={UserIcon} />;
  const data = profile.data;
  return (
    <section className="mx-auto max-w-4xl space-y-6">
      <PageHeader title={t('title')} description={t('subtitle')} />
      <AvatarSection profile={data} />
      <AccountSection profile={data} />
      <PreferencesSection
        key={[data.language, data.time_zone, data.default_meeting_password, data.reminder_minutes].join('|')}
        profile={data}
      />
      <SignInMethods />
      <PasswordSection profile={data} />
      <SessionsSection />
      <DataSection profile={data} />
    </section>
  );
}
