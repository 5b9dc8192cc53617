import { ROLE, type Language } from '@meetcast/contracts';
import { count, eq, isUniqueViolation, sql, users, type UserRow } from '@meetcast/db';
import { AppError, badRequest } from '../http/app-error.js';
import { translate } from '../i18n/messages.js';
import { RATE_LIMITS, enforceLimits } from '../platform/limits.js';
import { CODE_LIFETIME_MINUTES, consumeCode, issueCode } from './codes.js';
import { toUserDto } from './user-dto.js';
import { hashPassword, verifyPassword } from '../platform/hashing.js';
import type { AccountsContext } from './accounts-context.js';

export interface RequestMeta {
  ipAddress: string;
  userAgent: string | undefined;
  language: Language;
}

// Serializes account creation so that exactly one first account becomes the administrator.
const FIRST_ACCOUNT_LOCK_ID = 727_002;

async function findByEmail(context: AccountsContext, email: string) {
  const [row] = await context.db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

function mailInBackground(context: AccountsContext, send: () => Promise<void>) {
  send().catch((error: unknown) => context.log.error({ err: error }, 'sending mail failed'));
}

function mailBody(language: Language, name: string, body: string) {
  return [translate(language, 'mail.greeting', { name }), '', body, '', translate(language, 'mail.signoff')].join('\n');
}

async function sendCodeMail(context: AccountsContext, user: UserRow, purpose: 'signup' | 'reset', language: Language) {
  const code = await issueCode(context.db, user.id, purpose);
  const params = { code, count: CODE_LIFETIME_MINUTES };
  const subjectKey = purpose === 'signup' ? 'mail.signup_subject' : 'mail.reset_subject';
  const bodyKey = purpose === 'signup' ? 'mail.signup_body' : 'mail.reset_body';
  mailInBackground(context, () =>
    context.mailer.send({
      to: user.email,
      subject: translate(language, subjectKey, params),
      text: mailBody(language, user.username, translate(language, bodyKey, params)),
    }),
  );
}

export async function signUp(
  context: AccountsContext,
  input: { username: string; email: string; password: string },
  meta: RequestMeta,
) {
  await enforceLimits(context, [
    [RATE_LIMITS.signupByAddress, meta.ipAddress],
    [RATE_LIMITS.signupByAccount, input.email],
  ]);
  const passwordHash = await hashPassword(input.password);
  const existing = await findByEmail(context, input.email);
  if (existing?.emailVerifiedAt) {
    // Same answer as a new sign-up; the owner of the address learns of the attempt by mail.
    const language = existing.language as Language;
    mailInBackground(context, () =>
      context.mailer.send({
        to: existing.email,
        subject: translate(language, 'mail.exists_subject'),
        text: mailBody(
          language,
          existing.username,
          translate(language, 'mail.exists_body', {
            url: `${context.config.publicUrl}/login`,
          }),
        ),
      }),
    );
    return;
  }
  let user: UserRow;
  try {
    user = existing
      ? await updatePendingAccount(context, existing.id, input.username, passwordHash, meta.language)
      : await createAccount(context, input.username, input.email, passwordHash, meta.language);
  } catch (error) {
    // Another sign-up with this address won the race: answered like any sign-up of a taken address
    // (that one's owner gets the confirmation code).
    if (isUniqueViolation(error, 'users_email_unique')) return;
    throw error;
  }
  await sendCodeMail(context, user, 'signup', meta.language);
}

async function updatePendingAccount(
  context: AccountsContext,
  id: number,
  username: string,
  passwordHash: string,
  language: Language,
) {
  const [row] = await context.db
    .update(users)
    .set({ username, passwordHash, language, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  if (!row) throw new Error('pending account vanished');
  return row;
}

/** Creates an account; the first one on an installation becomes the administrator. */
export async function createAccount(
  context: Pick<AccountsContext, 'db'>,
  username: string,
  email: string,
  passwordHash: string | null,
  language: Language,
  extra: Partial<typeof users.$inferInsert> = {},
): Promise<UserRow> {
  return context.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK_ID})`);
    const [{ total } = { total: 0 }] = await tx.select({ total: count() }).from(users);
    const [row] = await tx
      .insert(users)
      .values({
        username,
        email,
        passwordHash,
        language,
        roleId: total === 0 ? ROLE.admin : ROLE.user,
        ...extra,
      })
      .returning();
    if (!row) throw new Error('account insert returned nothing');
    return row;
  });
}

export async function resendSignupCode(context: AccountsContext, email: string, meta: RequestMeta) {
  await enforceLimits(context, [
    [RATE_LIMITS.signupByAddress, meta.ipAddress],
    [RATE_LIMITS.signupByAccount, email],
  ]);
  const user = await findByEmail(context, email);
  if (user && !user.emailVerifiedAt) await sendCodeMail(context, user, 'signup', meta.language);
}

async function startSession(context: AccountsContext, user: UserRow, meta: RequestMeta) {
  const token = await context.sessions.create(user.id, meta);
  return { token, data: toUserDto(user) };
}

export async function confirmSignUp(
  context: AccountsContext,
  input: { email: string; code: string },
  meta: RequestMeta,
) {
  await enforceLimits(context, [
    [RATE_LIMITS.codeByAddress, meta.ipAddress],
    [RATE_LIMITS.codeByAccount, input.email],
  ]);
  const user = await findByEmail(context, input.email);
  const consumed = user && !user.emailVerifiedAt && (await consumeCode(context.db, user.id, 'signup', input.code));
  if (!user || !consumed) throw badRequest('accounts.code_invalid');
  const [verified] = await context.db
    .update(users)
    .set({ emailVerifiedAt: new Date(), updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning();
  return startSession(context, verified ?? user, meta);
}

/**
 * The limits of a sign-in (docs/decisions/009). A browser that signed in to the account before has
 * its own counter only, so guessing from elsewhere never locks it. Any other is counted by address, by
 * account at that address, and by account; past the account's ceiling it is slowed to a trickle rather
 * than refused for the rest of the hour, so strangers cannot shut the owner out.
 */
async function enforceSignInLimits(context: AccountsContext, email: string, meta: RequestMeta, knownDevice?: string) {
  if (knownDevice) {
    await enforceLimits(context, [[RATE_LIMITS.loginByKnownDevice, `${email}|${knownDevice}`]]);
    return;
  }
  await enforceLimits(context, [
    [RATE_LIMITS.loginByAddress, meta.ipAddress],
    [RATE_LIMITS.loginByAccountAndAddress, `${email}|${meta.ipAddress}`],
  ]);
  if ((await context.limiter.hit(RATE_LIMITS.loginByAccount, email)).allowed) return;
  await enforceLimits(context, [[RATE_LIMITS.loginByAccountTrickle, email]]);
}

/** `knownDevice`: this browser's name for the account, when it signed in to it before (known-devices.ts). */
export async function logIn(
  context: AccountsContext,
  input: { email: string; password: string },
  meta: RequestMeta,
  knownDevice?: string,
) {
  await enforceSignInLimits(context, input.email, meta, knownDevice);
  const user = await findByEmail(context, input.email);
  const isPasswordRight = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !isPasswordRight) throw new AppError(401, 'accounts.login_failed');
  if (user.disabledAt) throw new AppError(403, 'accounts.account_disabled');
  if (!user.emailVerifiedAt) {
    await sendCodeMail(context, user, 'signup', meta.language);
    throw new AppError(403, 'accounts.login_unconfirmed');
  }
  await context.limiter.reset(
    knownDevice ? RATE_LIMITS.loginByKnownDevice : RATE_LIMITS.loginByAccountAndAddress,
    `${input.email}|${knownDevice ?? meta.ipAddress}`,
  );
  return startSession(context, user, meta);
}

export async function requestPasswordReset(context: AccountsContext, email: string, meta: RequestMeta) {
  await enforceLimits(context, [
    [RATE_LIMITS.resetByAddress, meta.ipAddress],
    [RATE_LIMITS.resetByAccount, email],
  ]);
  // The lookup, the code and the mail happen after the answer, for known and unknown addresses
  // alike, so the answer's timing tells nothing about whether an account exists.
  mailInBackground(context, async () => {
    const user = await findByEmail(context, email);
    if (user && !user.disabledAt) await sendCodeMail(context, user, 'reset', user.language as Language);
  });
}

export async function resetPassword(
  context: AccountsContext,
  input: { email: string; code: string; password: string },
  meta: RequestMeta,
) {
  await enforceLimits(context, [
    [RATE_LIMITS.codeByAddress, meta.ipAddress],
    [RATE_LIMITS.codeByAccount, input.email],
  ]);
  const user = await findByEmail(context, input.email);
  const consumed = user && (await consumeCode(context.db, user.id, 'reset', input.code));
  if (!user || !consumed) throw badRequest('accounts.code_invalid');
  const passwordHash = await hashPassword(input.password);
  // Receiving the code proves the address, so a pending account is confirmed too.
  await context.db
    .update(users)
    .set({
      passwordHash,
      emailVerifiedAt: user.emailVerifiedAt ?? new Date(),
      updatedAt: new Date(),
    })
    .where(eq(users.id, user.id));
  await context.sessions.revokeAllForUser(user.id);
  // The reset proved the mailbox and retired the password that was being guessed: the account's
  // sign-in counters start again, and this address's too.
  await Promise.all([
    context.limiter.reset(RATE_LIMITS.loginByAccount, user.email),
    context.limiter.reset(RATE_LIMITS.loginByAccountTrickle, user.email),
    context.limiter.reset(RATE_LIMITS.loginByAccountAndAddress, `${user.email}|${meta.ipAddress}`),
  ]);
}
