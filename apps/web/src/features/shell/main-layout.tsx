import { useSession } from '../session';
import { BlankLayout } from './blank-layout';
import { USER_NAVIGATION } from './navigation';
import { ShellFrame } from './shell-frame';

/** Sidebar + top bar for signed-in users; the blank layout when there is no session. */
export function MainLayout() {
  const { state } = useSession();
  if (state.status !== 'signed-in') return <BlankLayout />;
  return <ShellFrame token={state.token} navigation={USER_NAVIGATION} />;
}
