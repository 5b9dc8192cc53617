import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, instant, updatedAt } from './columns.js';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    /** Null for people who only ever signed in through the external provider. */
    passwordHash: text('password_hash'),
    roleId: smallint('role_id').notNull().default(2),
    emailVerifiedAt: instant('email_verified_at'),
    avatar: text('avatar'),
    language: text('language').notNull().default('en'),
    timeZone: text('time_zone').notNull().default('UTC'),
    /** Meeting defaults a user picks on the profile page. */
    defaultMeetingPassword: boolean('default_meeting_password').notNull().default(false),
    reminderMinutes: integer('reminder_minutes').notNull().default(10),
    /** The secret in the user's private calendar feed address; null until the user asks for one. */
    calendarFeedToken: text('calendar_feed_token'),
    disabledAt: instant('disabled_at'),
    /** "username email" lower-cased, kept by the database: the administrators' user search scans only this. */
    searchText: text('search_text').generatedAlwaysAs(sql`lower("username" || ' ' || "email")`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(table.email),
    uniqueIndex('users_calendar_feed_token_unique').on(table.calendarFeedToken),
    index('users_username_idx').on(sql`lower(${table.username})`),
  ],
);

/** A row of `users`, as every feature reads it. */
export type UserRow = typeof users.$inferSelect;

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token: a leaked table does not leak sessions. */
    tokenHash: text('token_hash').notNull(),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
    createdAt: createdAt(),
    lastUsedAt: instant('last_used_at').notNull().defaultNow(),
    expiresAt: instant('expires_at').notNull(),
    revokedAt: instant('revoked_at'),
  },
  (table) => [
    uniqueIndex('sessions_token_hash_unique').on(table.tokenHash),
    index('sessions_user_idx').on(table.userId),
  ],
);

export const CODE_PURPOSES = ['signup', 'reset', 'email_change'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: CODE_PURPOSES }).notNull(),
    codeHash: text('code_hash').notNull(),
    /** The address a changed e-mail is moving to; null for other purposes. */
    newEmail: text('new_email'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: instant('expires_at').notNull(),
    consumedAt: instant('consumed_at'),
    createdAt: createdAt(),
  },
  (table) => [index('verification_codes_user_idx').on(table.userId, table.purpose)],
);

/** Links an account to an external OpenID Connect identity (issuer + subject). */
export const externalIdentities = pgTable(
  'external_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('external_identities_subject_unique').on(table.issuer, table.subject)],
);

/**
 * An external sign-in that was started and not finished yet: the PKCE verifier, `state` and
 * `nonce` stay here; the browser holds only a random handle (httpOnly cookie) whose SHA-256 is
 * `handle_hash`. A row is deleted when the callback consumes it, so each one is used at most once.
 */
export const externalLoginAttempts = pgTable(
  'external_login_attempts',
  {
    id: serial('id').primaryKey(),
    handleHash: text('handle_hash').notNull(),
    state: text('state').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    expiresAt: instant('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('external_login_attempts_handle_unique').on(table.handleHash),
    index('external_login_attempts_expires_idx').on(table.expiresAt),
  ],
);
