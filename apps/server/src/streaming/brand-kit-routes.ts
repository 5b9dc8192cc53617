import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { apiRoute, success } from '../http/api-route.js';
import { enforceLimits } from '../platform/limits.js';
import { getBrandKit, removeBrandImage, updateBrandKit, uploadBrandImage } from './brand-kit-service.js';
import { addBrandOverlay, removeBrandOverlay } from './brand-overlay-library.js';

const UPLOADS_BY_ACCOUNT = { name: 'brand-upload-account', limit: 30, windowSeconds: 3600 };

/** The caller's channel's brand kit (ADR 046): what their broadcasts look like. */
export function registerBrandKitRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'streaming';

  apiRoute(app, {
    name: 'get-brand-kit.php',
    tag,
    summary: "The brand kit of the caller's channel (the defaults until it is changed); 400 without a channel",
    handler: async (_body, { caller: { user }, t }) =>
      success(t('broadcasts.brand_loaded'), await getBrandKit(context, user)),
  });

  apiRoute(app, {
    name: 'update-brand-kit.php',
    tag,
    summary: 'Change the accent colour (#rrggbb) or the name-tag style; running broadcasts redraw at once',
    handler: async (body, { caller: { user }, t }) =>
      success(t('broadcasts.brand_saved'), await updateBrandKit(context, user, body)),
  });

  apiRoute(app, {
    name: 'upload-brand-image.php',
    tag,
    summary: 'Upload the logo, background or overlay image (multipart `file`: JPEG, PNG or WebP up to 5 MB)',
    handler: async (body, { caller: { user }, t }) => {
      await enforceLimits(context, [[UPLOADS_BY_ACCOUNT, String(user.id)]]);
      return success(t('broadcasts.brand_saved'), await uploadBrandImage(context, user, body.kind, body.file));
    },
  });

  apiRoute(app, {
    name: 'remove-brand-image.php',
    tag,
    summary: 'Remove the logo, background or overlay image from the brand kit',
    handler: async (body, { caller: { user }, t }) =>
      success(t('broadcasts.brand_saved'), await removeBrandImage(context, user, body.kind)),
  });

  apiRoute(app, {
    name: 'add-brand-overlay.php',
    tag,
    summary:
      'Add an image to the overlay library (multipart `file`: JPEG, PNG or WebP up to 5 MB); 409 when it holds 10 already',
    handler: async (body, { caller: { user }, t }) => {
      await enforceLimits(context, [[UPLOADS_BY_ACCOUNT, String(user.id)]]);
      return success(t('broadcasts.overlay_added'), await addBrandOverlay(context, user, body.file));
    },
  });

  apiRoute(app, {
    name: 'remove-brand-overlay.php',
    tag,
    summary:
      "Delete an overlay of the library and its file (404 when not one of the caller's); a broadcast showing it shows none",
    handler: async (body, { caller: { user }, t }) =>
      success(t('broadcasts.overlay_removed'), await removeBrandOverlay(context, user, body.id)),
  });
}
