import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { apiRoute, done, success } from '../http/api-route.js';
import { deleteAccount, exportMyData } from './account-data.js';
import {
  changePassword,
  confirmEmailChange,
  listSessions,
  profileOf,
  removeAvatar,
  revokeSession,
  updateProfile,
  uploadAvatar,
} from './profile-service.js';

export function registerProfileRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'profile';

  apiRoute(app, {
    name: 'get-profile.php',
    tag,
    summary: "The caller's profile: account, preferences, meeting defaults and a pending e-mail change",
    handler: async (_body, { caller: { user }, t }) => {
      return success(t('profile.loaded'), { data: await profileOf(context, user.id) });
    },
  });

  apiRoute(app, {
    name: 'update-profile.php',
    tag,
    summary:
      'Change username, language, time zone and meeting defaults; a new e-mail gets a code and counts once confirmed',
    handler: async (body, { caller: { user }, t }) => {
      const { emailSentTo, profile } = await updateProfile(context, user, body);
      const text = emailSentTo ? t('profile.email_code_sent', { email: emailSentTo }) : t('profile.updated');
      return success(text, { data: profile });
    },
  });

  apiRoute(app, {
    name: 'confirm-email-change.php',
    tag,
    summary: 'Confirm the new e-mail address with the code mailed to it',
    handler: async (body, { caller: { user }, t }) => {
      const profile = await confirmEmailChange(context, user, body.code);
      return success(t('profile.email_changed', { email: profile.email }), { data: profile });
    },
  });

  apiRoute(app, {
    name: 'upload-avatar.php',
    tag,
    summary:
      'Upload a profile picture (multipart `file`: JPEG, PNG or WebP up to 5 MB); re-encoded, resized, EXIF removed',
    handler: async (body, { caller: { user }, t }) => {
      return success(t('profile.avatar_saved'), { data: await uploadAvatar(context, user, body.file) });
    },
  });

  apiRoute(app, {
    name: 'remove-avatar.php',
    tag,
    summary: 'Remove the profile picture',
    handler: async (_body, { caller: { user }, t }) => {
      return success(t('profile.avatar_removed'), { data: await removeAvatar(context, user) });
    },
  });

  apiRoute(app, {
    name: 'change-password.php',
    tag,
    summary: 'Change (or, after external sign-in, set) the password; every other session is signed out',
    handler: async (body, { caller: session, t }) => {
      await changePassword(context, session, body);
      return done(t('profile.password_changed'));
    },
  });

  apiRoute(app, {
    name: 'get-sessions.php',
    tag,
    summary: "The caller's active sessions: device (user agent), address, last use; the current one is marked",
    handler: async (_body, { caller: { user, sessionId }, t }) => {
      return success(t('profile.sessions_ok'), {
        data: await listSessions(context, user.id, sessionId),
      });
    },
  });

  apiRoute(app, {
    name: 'revoke-session.php',
    tag,
    summary: "Sign out one of the caller's sessions",
    handler: async (body, { caller: { user }, t }) => {
      await revokeSession(context, user.id, body.id);
      return done(t('profile.session_revoked'));
    },
  });

  apiRoute(app, {
    name: 'export-my-data.php',
    tag,
    summary: 'Everything Meetcast keeps about the caller, as one JSON document',
    handler: async (_body, { caller: { user }, t }) => {
      const day = new Date().toISOString().slice(0, 10);
      return success(t('profile.data_exported'), {
        filename: `meetcast-my-data-${day}.json`,
        data: await exportMyData(context, user.id),
      });
    },
  });

  apiRoute(app, {
    name: 'delete-account.php',
    tag,
    summary:
      'Delete the account after confirming the password (or the e-mail address for accounts without one); hosted meetings are cancelled and invitees told',
    handler: async (body, { caller: { user }, t }) => {
      await deleteAccount(context, user, body);
      return done(t('profile.account_deleted'));
    },
  });
}
