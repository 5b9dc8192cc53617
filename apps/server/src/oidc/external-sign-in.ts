import { and, eq, externalIdentities, isUniqueViolation, users, type UserRow } from '@meetcast/db';
import { createAccount, type RequestMeta } from '../accounts/account-service.js';
import { claimUnconfirmedAccount, setAvatar } from '../accounts/user-records.js';
import type { AppContext } from '../context.js';
import { AppError } from '../http/app-error.js';
import { storeImage } from '../uploads/images.js';
import { fetchPicture } from './picture.js';
import { usernameFrom } from './username.js';
import type { ExternalProfile, OidcSettings } from './provider-client.js';

export type SignInOutcome = 'signed_in' | 'linked' | 'created';

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

async function findLinkedUser(context: AppContext, profile: ExternalProfile) {
  const [row] = await context.db
    .select({ user: users, identity: externalIdentities })
    .from(externalIdentities)
    .innerJoin(users, eq(users.id, externalIdentities.userId))
    .where(and(eq(externalIdentities.issuer, profile.issuer), eq(externalIdentities.subject, profile.subject)))
    .limit(1);
  return row;
}

async function link(context: AppContext, userId: number, profile: ExternalProfile) {
  await context.db
    .insert(externalIdentities)
    .values({ userId, issuer: profile.issuer, subject: profile.subject, email: profile.email ?? null })
    .onConflictDoNothing();
}

/**
 * Signs a verified external identity in:
 * 1. an identity linked before signs its account in;
 * 2. else an account with the same address is linked, only when the provider says the address is
 *    verified (an unverified claim never takes an account over);
 * 3. else a new account is created through createAccount (the first one becomes administrator).
 * The allowed-domain list applies on every sign-in.
 */
export async function signInExternal(
  context: AppContext,
  settings: OidcSettings,
  profile: ExternalProfile,
  meta: RequestMeta,
): Promise<{ user: UserRow; outcome: SignInOutcome }> {
  const provider = settings.displayName;
  if (settings.allowedDomains.length > 0) {
    if (!profile.email) throw new AppError(403, 'oidc.email_missing', { provider });
    const domain = domainOf(profile.email);
    if (!settings.allowedDomains.includes(domain)) throw new AppError(403, 'oidc.domain_not_allowed', { domain });
  }

  const linked = await findLinkedUser(context, profile);
  if (linked) {
    if (linked.user.disabledAt) throw new AppError(403, 'accounts.account_disabled');
    if (profile.email && profile.email !== linked.identity.email) {
      await context.db
        .update(externalIdentities)
        .set({ email: profile.email })
        .where(eq(externalIdentities.id, linked.identity.id));
    }
    return { user: linked.user, outcome: 'signed_in' };
  }

  const email = profile.email;
  if (!email) throw new AppError(400, 'oidc.email_missing', { provider });

  // Two tries: a concurrent sign-up of the same address turns the second into a link.
  for (let attempt = 0; ; attempt++) {
    const [existing] = await context.db.select().from(users).where(eq(users.email, email)).limit(1);
    if (existing) return { user: await linkExisting(context, existing, profile, provider), outcome: 'linked' };
    if (profile.emailVerified === false) throw new AppError(403, 'oidc.email_unverified', { provider });
    try {
      const created = await createAccount(context, usernameFrom(profile.names, email), email, null, meta.language, {
        emailVerifiedAt: new Date(),
      });
      await link(context, created.id, profile);
      return { user: await withPicture(context, created, profile), outcome: 'created' };
    } catch (error) {
      if (attempt === 0 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

async function linkExisting(context: AppContext, existing: UserRow, profile: ExternalProfile, provider: string) {
  if (profile.emailVerified !== true) {
    throw new AppError(409, 'oidc.email_unverified_existing', { provider, email: existing.email });
  }
  if (existing.disabledAt) throw new AppError(403, 'accounts.account_disabled');
  let user = existing;
  if (!existing.emailVerifiedAt) {
    // A sign-up nobody confirmed: whoever started it never proved the address, the provider did.
    // Their password goes, so that it cannot open the account the real owner now holds.
    const claimed = await claimUnconfirmedAccount(context.db, existing.id, usernameFrom(profile.names, existing.email));
    user = claimed ?? existing;
    await context.sessions.revokeAllForUser(existing.id);
  }
  await link(context, user.id, profile);
  return withPicture(context, user, profile);
}

/** Gives an account without an avatar the provider's picture; a picture that fails is skipped. */
async function withPicture(context: AppContext, user: UserRow, profile: ExternalProfile): Promise<UserRow> {
  if (user.avatar || !profile.picture) return user;
  try {
    const image = await fetchPicture(profile.picture, profile.issuer);
    const avatar = await storeImage(context, image, 'avatar');
    const updated = await setAvatar(context.db, user.id, avatar);
    await context.sessions.forgetUser(user.id);
    return updated ?? user;
  } catch (error) {
    context.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'provider picture skipped');
    return user;
  }
}
