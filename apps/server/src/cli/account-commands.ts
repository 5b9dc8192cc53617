import { EmailSchema, ROLE, UsernameSchema, type Language } from '@meetcast/contracts';
import { eq, users } from '@meetcast/db';
import { createAccount } from '../accounts/account-service.js';
import { disableUsers, setPasswordHash, setUserRole } from '../accounts/user-records.js';
import { assertAdministratorsRemain } from '../admin/admin-users.js';
import { AppError } from '../http/app-error.js';
import { translate } from '../i18n/messages.js';
import type { CliContext } from './cli-context.js';
import { UsageError } from './password-input.js';
import { hashPassword } from '../platform/hashing.js';

/** The language of what the command line prints from the server's messages. */
const LANGUAGE: Language = 'en';

export function checkedEmail(value: string | undefined): string {
  const email = EmailSchema.safeParse(value ?? '');
  if (!email.success) throw new UsageError(`--email: ${email.error.issues[0]?.message ?? 'invalid'}`);
  return email.data;
}

export function checkedUsername(value: string | undefined): string {
  const username = UsernameSchema.safeParse(value ?? '');
  if (!username.success) throw new UsageError(`--username: ${username.error.issues[0]?.message ?? 'invalid'}`);
  return username.data;
}

async function userByEmail(context: CliContext, email: string) {
  const [row] = await context.db.select().from(users).where(eq(users.email, email)).limit(1);
  if (!row) throw new UsageError(`no account has the address ${email}`);
  return row;
}

/**
 * A confirmed administrator with this address. An account that exists already is made administrator
 * and given the password (an operator locked out of the only administrator account gets back in).
 */
export async function createAdmin(context: CliContext, input: { email: string; username: string; password: string }) {
  const passwordHash = await hashPassword(input.password);
  const [existing] = await context.db.select().from(users).where(eq(users.email, input.email)).limit(1);
  if (!existing) {
    const created = await createAccount(context, input.username, input.email, passwordHash, LANGUAGE, {
      roleId: ROLE.admin,
      emailVerifiedAt: new Date(),
    });
    return `created administrator ${created.email} (id ${created.id})`;
  }
  if (existing.disabledAt) throw new UsageError(`${input.email} is disabled; enable it in the admin area first`);
  await setPasswordHash(context.db, existing.id, passwordHash);
  await setUserRole(context.db, existing.id, ROLE.admin);
  await context.sessions.revokeAllForUser(existing.id);
  return `${existing.email} (id ${existing.id}) is now an administrator with the new password; its sessions ended`;
}

/** As the reset flow does: the new password, and every session of the account ends. */
export async function resetPassword(context: CliContext, input: { email: string; password: string }) {
  const user = await userByEmail(context, input.email);
  await setPasswordHash(context.db, user.id, await hashPassword(input.password));
  await context.sessions.revokeAllForUser(user.id);
  return `new password set for ${user.email} (id ${user.id}); its sessions ended`;
}

/** As the admin area's disable does: sign-in is refused and every session ends; the last administrator stays. */
export async function disableUser(context: CliContext, input: { email: string }) {
  const user = await userByEmail(context, input.email);
  try {
    const disabled = await context.db.transaction(async (tx) => {
      await assertAdministratorsRemain(tx, [user.id]);
      return disableUsers(tx, [user.id]);
    });
    await context.sessions.revokeAllForUser(user.id);
    return disabled.length > 0
      ? `disabled ${user.email} (id ${user.id}); its sessions ended`
      : `${user.email} (id ${user.id}) was disabled already; its sessions ended`;
  } catch (error) {
    if (error instanceof AppError) throw new UsageError(translate(LANGUAGE, error.key, error.params));
    throw error;
  }
}
