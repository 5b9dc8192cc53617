import type { Language, Profile } from '@meetcast/contracts';
import {
  and,
  desc,
  eq,
  gt,
  isNull,
  isUniqueViolation,
  ne,
  sessions,
  users,
  verificationCodes,
  type UserRow,
} from '@meetcast/db';
import { CODE_LIFETIME_MINUTES, consumeCode, issueCode } from '../accounts/codes.js';
import { toUserDto } from '../accounts/user-dto.js';
import { setAvatar, setEmail, setPasswordHash, updateUserSettings } from '../accounts/user-records.js';
import type { AppContext } from '../context.js';
import { AppError, badRequest, conflict, notFound } from '../http/app-error.js';
import { languageOf, translate } from '../i18n/messages.js';
import { enforceLimits } from '../platform/limits.js';
import { removeImage, storeImage } from '../uploads/images.js';
import { toEpochSeconds } from '../platform/time.js';
import { hashPassword, verifyPassword } from '../platform/hashing.js';

const EMAIL_CHANGE_BY_ACCOUNT = { name: 'email-change-account', limit: 5, windowSeconds: 3600 };
const EMAIL_CODE_BY_ACCOUNT = { name: 'email-code-account', limit: 10, windowSeconds: 900 };
const PASSWORD_BY_ACCOUNT = { name: 'password-change-account', limit: 10, windowSeconds: 900 };
const AVATAR_BY_ACCOUNT = { name: 'avatar-account', limit: 30, windowSeconds: 3600 };

export async function loadUser(context: AppContext, id: number) {
  const [row] = await context.db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!row) throw notFound();
  return row;
}

async function pendingEmail(context: AppContext, userId: number) {
  const [row] = await context.db
    .select({ newEmail: verificationCodes.newEmail })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.userId, userId),
        eq(verificationCodes.purpose, 'email_change'),
        isNull(verificationCodes.consumedAt),
        gt(verificationCodes.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  return row?.newEmail ?? null;
}

export async function profileOf(context: AppContext, userId: number): Promise<Profile> {
  const user = await loadUser(context, userId);
  return {
    ...toUserDto(user),
    has_password: user.passwordHash !== null,
    pending_email: await pendingEmail(context, userId),
    default_meeting_password: user.defaultMeetingPassword,
    reminder_minutes: user.reminderMinutes,
  };
}

function mailText(language: Language, name: string, body: string) {
  return [translate(language, 'mail.greeting', { name }), '', body, '', translate(language, 'mail.signoff')].join('\n');
}

function mailLater(context: AppContext, send: Promise<void>) {
  send.catch((error: unknown) => context.log.error({ err: error }, 'sending mail failed'));
}

export interface ProfileChanges {
  username?: string | undefined;
  email?: string | undefined;
  language?: Language | undefined;
  time_zone?: string | undefined;
  default_meeting_password?: boolean | undefined;
  reminder_minutes?: number | undefined;
}

/**
 * Saves the profile. A new e-mail address does not count until the code mailed to it comes back
 * (confirmEmailChange); an address that already has an account gets a notice instead of a code, and
 * the answer is the same either way so that nobody learns which addresses have accounts.
 */
export async function updateProfile(context: AppContext, user: UserRow, changes: ProfileChanges) {
  const values = {
    username: changes.username,
    language: changes.language,
    timeZone: changes.time_zone,
    defaultMeetingPassword: changes.default_meeting_password,
    reminderMinutes: changes.reminder_minutes,
  };
  const set = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  if (Object.keys(set).length > 0) {
    await updateUserSettings(context.db, user.id, set);
    await context.sessions.forgetUser(user.id);
  }
  let emailSentTo: string | undefined;
  if (changes.email && changes.email !== user.email) {
    await enforceLimits(context, [[EMAIL_CHANGE_BY_ACCOUNT, String(user.id)]]);
    const language = changes.language ?? languageOf(user);
    const [holder] = await context.db.select().from(users).where(eq(users.email, changes.email)).limit(1);
    if (holder) {
      mailLater(
        context,
        context.mailer.send({
          to: changes.email,
          subject: translate(languageOf(holder), 'profile.email_taken_subject'),
          text: mailText(
            languageOf(holder),
            holder.username,
            translate(languageOf(holder), 'profile.email_taken_body'),
          ),
        }),
      );
    } else {
      const code = await issueCode(context.db, user.id, 'email_change', changes.email);
      const params = { code, count: CODE_LIFETIME_MINUTES, email: changes.email };
      mailLater(
        context,
        context.mailer.send({
          to: changes.email,
          subject: translate(language, 'profile.email_code_subject', params),
          text: mailText(
            language,
            changes.username ?? user.username,
            translate(language, 'profile.email_code_body', params),
          ),
        }),
      );
    }
    emailSentTo = changes.email;
  }
  return { emailSentTo, profile: await profileOf(context, user.id) };
}

export async function confirmEmailChange(context: AppContext, user: UserRow, code: string) {
  await enforceLimits(context, [[EMAIL_CODE_BY_ACCOUNT, String(user.id)]]);
  const consumed = await consumeCode(context.db, user.id, 'email_change', code);
  if (!consumed?.newEmail) throw badRequest('accounts.code_invalid');
  const newEmail = consumed.newEmail;
  const [holder] = await context.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, newEmail), ne(users.id, user.id)))
    .limit(1);
  if (holder) throw conflict('profile.email_taken');
  try {
    await setEmail(context.db, user.id, newEmail);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('profile.email_taken');
    throw error;
  }
  await context.sessions.forgetUser(user.id);
  const language = languageOf(user);
  // The old address learns of the change, in case it was not its owner who made it.
  mailLater(
    context,
    context.mailer.send({
      to: user.email,
      subject: translate(language, 'profile.email_changed_subject'),
      text: mailText(language, user.username, translate(language, 'profile.email_changed_body', { email: newEmail })),
    }),
  );
  return profileOf(context, user.id);
}

export async function uploadAvatar(context: AppContext, user: UserRow, bytes: Uint8Array | undefined) {
  await enforceLimits(context, [[AVATAR_BY_ACCOUNT, String(user.id)]]);
  const path = await storeImage(context, bytes, 'avatar');
  const current = await loadUser(context, user.id);
  await setAvatar(context.db, user.id, path);
  await context.sessions.forgetUser(user.id);
  await removeImage(context, current.avatar);
  return profileOf(context, user.id);
}

export async function removeAvatar(context: AppContext, user: UserRow) {
  const current = await loadUser(context, user.id);
  await setAvatar(context.db, user.id, null);
  await context.sessions.forgetUser(user.id);
  await removeImage(context, current.avatar);
  return profileOf(context, user.id);
}

/** Checks the current password (when the account has one) or throws; counts wrong tries. */
export async function confirmPassword(context: AppContext, user: UserRow, password: string | undefined) {
  const current = await loadUser(context, user.id);
  if (current.passwordHash === null) return current;
  await enforceLimits(context, [[PASSWORD_BY_ACCOUNT, String(user.id)]]);
  if (!password || !(await verifyPassword(current.passwordHash, password))) {
    throw badRequest('profile.password_wrong');
  }
  return current;
}

/** Sets a new password and signs out every other session. */
export async function changePassword(
  context: AppContext,
  session: { user: UserRow; sessionId: number },
  input: { current_password?: string | undefined; password: string },
) {
  await confirmPassword(context, session.user, input.current_password);
  const passwordHash = await hashPassword(input.password);
  await setPasswordHash(context.db, session.user.id, passwordHash);
  await context.sessions.revokeAllForUser(session.user.id, session.sessionId);
}

export async function listSessions(context: AppContext, userId: number, currentSessionId: number) {
  const rows = await context.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.id));
  return rows.map((row) => ({
    id: row.id,
    user_agent: row.userAgent,
    ip_address: row.ipAddress,
    created_at: toEpochSeconds(row.createdAt),
    last_used_at: toEpochSeconds(row.lastUsedAt),
    is_current: row.id === currentSessionId,
  }));
}

export async function revokeSession(context: AppContext, userId: number, sessionId: number) {
  const [row] = await context.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .limit(1);
  if (!row) throw new AppError(404, 'profile.session_not_found');
  await context.sessions.revokeSession(userId, sessionId);
}
