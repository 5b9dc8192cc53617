import { ADMIN_ACCOUNT } from './accounts';
import { createAccount } from './api';

/** The installation is fresh, so the first account created here becomes the administrator (role_id 1). */
export default async function globalSetup() {
  const admin = await createAccount(ADMIN_ACCOUNT);
  if (admin.user.role_id !== 1) throw new Error('the first account should be the administrator');
}
