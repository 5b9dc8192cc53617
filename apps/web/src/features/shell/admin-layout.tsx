import { useTranslation } from 'react-i18next';
import { useSession } from '../session';
import { ADMIN_NAVIGATION } from './navigation';
import { ShellFrame } from './shell-frame';

/** The admin area with its own sidebar; the route guard keeps everyone but administrators out. */
export function AdminLayout() {
  const { t } = useTranslation('shell');
  const { state } = useSession();
  if (state.status !== 'signed-in') return null;
  return (
    <ShellFrame
      token={state.token}
      navigation={ADMIN_NAVIGATION}
      sidebarHeading={t('nav.admin_heading')}
      homePath="/admin/dashboard"
    />
  );
}
