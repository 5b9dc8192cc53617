import { ROLE } from '@meetcast/contracts';
import { and, eq, isNull, users } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import { requestToken } from '../accounts/authenticate.js';
import type { AppContext } from '../context.js';
import { apiRoute, done } from '../http/api-route.js';
import { requestLanguage } from '../http/request-language.js';
import { languageOf, translate } from '../i18n/messages.js';
import { enforceLimits } from '../platform/limits.js';
import { storeContactMessage } from './contact-messages.js';
import { escapeHtml } from '../platform/text.js';

const CONTACT_US_BY_ADDRESS = { name: 'contact-us-address', limit: 5, windowSeconds: 3600 };
const CONTACT_US_BY_EMAIL = { name: 'contact-us-email', limit: 3, windowSeconds: 3600 };

function mailText(language: Parameters<typeof translate>[0], name: string, body: string) {
  return [translate(language, 'mail.greeting', { name }), '', body, '', translate(language, 'mail.signoff')].join('\n');
}

export function registerContactUsRoutes(app: FastifyInstance, context: AppContext) {
  apiRoute(app, {
    name: 'contact-us.php',
    tag: 'contact-us',
    summary:
      'Send a message to the administrators (token optional); they are notified, the sender gets a confirmation. Rate-limited per IP and e-mail address',
    handler: async (body, { request }) => {
      const language = requestLanguage(request);
      const answer = done(translate(language, 'contact_us.sent'));
      // A bot filled the hidden field: it is told all went well, and nothing is kept or sent.
      if (body.website && body.website.trim() !== '') return answer;
      await enforceLimits(context, [
        [CONTACT_US_BY_ADDRESS, request.ip],
        [CONTACT_US_BY_EMAIL, body.email],
      ]);
      const token = requestToken(request);
      const sender = token && token.length <= 512 ? (await context.sessions.verify(token))?.user : undefined;
      const stored = await storeContactMessage(context.db, {
        userId: sender?.id ?? null,
        name: body.name,
        email: body.email,
        subject: body.subject,
        message: body.message,
      });
      const admins = await context.db
        .select()
        .from(users)
        .where(and(eq(users.roleId, ROLE.admin), isNull(users.disabledAt)));
      for (const admin of admins) {
        const adminLanguage = languageOf(admin);
        await context.notifier.notify(
          admin.id,
          translate(adminLanguage, 'contact_us.admin_notification', {
            name: escapeHtml(body.name),
            email: escapeHtml(body.email),
            subject: escapeHtml(body.subject),
            url: escapeHtml(`${context.config.publicUrl}/admin/contacts`),
          }),
        );
        context.mailer
          .send({
            to: admin.email,
            subject: translate(adminLanguage, 'contact_us.admin_mail_subject', {
              subject: body.subject,
              id: stored?.id ?? 0,
            }),
            text: mailText(
              adminLanguage,
              admin.username,
              translate(adminLanguage, 'contact_us.admin_mail_body', {
                name: body.name,
                email: body.email,
                subject: body.subject,
                message: body.message,
                url: `${context.config.publicUrl}/admin/contacts`,
              }),
            ),
          })
          .catch((error: unknown) => context.log.error({ err: error }, 'sending the contact message failed'));
      }
      context.mailer
        .send({
          to: body.email,
          subject: translate(language, 'contact_us.confirm_subject', { subject: body.subject }),
          text: mailText(
            language,
            body.name,
            translate(language, 'contact_us.confirm_body', { subject: body.subject, message: body.message }),
          ),
        })
        .catch((error: unknown) => context.log.error({ err: error }, 'sending the confirmation failed'));
      return answer;
    },
  });
}
