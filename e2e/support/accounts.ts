/** The administrator: the first account of the fresh installation, created by global-setup.ts. */
export const ADMIN_ACCOUNT = {
  username: 'Ada Admin',
  email: 'admin@example.com',
  password: 'admin password 123',
};
