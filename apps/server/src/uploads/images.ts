import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { AppContext } from '../context.js';
import { AppError, badRequest } from '../http/app-error.js';
import { UPLOAD_LIMIT } from '../http/body-parsers.js';
import { requestLanguage } from '../http/request-language.js';
import { translate } from '../i18n/messages.js';

/**
 * What each kind of picture becomes: always re-encoded to WebP (transparency kept), resized, without
 * metadata. `cover` crops to the size; `inside` keeps the whole picture within it (a logo); `contain`
 * fits the whole picture in a frame of exactly that size, the rest transparent (an image over the
 * broadcast's 16:9 picture).
 */
const IMAGE_KINDS = {
  avatar: { folder: 'avatars', width: 256, height: 256, fit: 'cover' },
  'channel-avatar': { folder: 'channel-avatars', width: 256, height: 256, fit: 'cover' },
  cover: { folder: 'covers', width: 1600, height: 400, fit: 'cover' },
  'brand-logo': { folder: 'brand-logos', width: 640, height: 320, fit: 'inside' },
  'brand-background': { folder: 'brand-backgrounds', width: 1920, height: 1080, fit: 'cover' },
  'brand-overlay': { folder: 'brand-overlays', width: 1920, height: 1080, fit: 'contain' },
} as const;
export type ImageKind = keyof typeof IMAGE_KINDS;

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);
const FOLDERS = new Set<string>(Object.values(IMAGE_KINDS).map((kind) => kind.folder));
const FILE_NAME = /^[a-f0-9]{32}\.webp$/;
// Refuses decompression bombs: a small file that unpacks to a gigantic bitmap.
const MAX_INPUT_PIXELS = 40_000_000;

export function uploadsDir(context: AppContext) {
  return join(context.config.dataDir, 'uploads');
}

/**
 * Checks that the bytes really are a JPEG, PNG or WebP picture (whatever the file was called),
 * re-encodes it to WebP at the kind's size, drops EXIF and every other metadata, and stores it.
 * Returns the path relative to the image base address, e.g. `uploads/avatars/…webp`.
 */
export async function storeImage(context: AppContext, bytes: Uint8Array | undefined, kind: ImageKind) {
  if (!bytes || bytes.length === 0) throw badRequest('uploads.image_required');
  if (bytes.length > UPLOAD_LIMIT) throw new AppError(413, 'uploads.too_large', { mb: UPLOAD_LIMIT / 1024 / 1024 });
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format: string | undefined;
  try {
    format = (await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    throw badRequest('uploads.not_an_image');
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw badRequest('uploads.not_an_image');
  const target = IMAGE_KINDS[kind];
  let output: Buffer;
  try {
    output = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize(target.width, target.height, {
        fit: target.fit,
        ...(target.fit === 'cover' ? { position: 'attention' } : {}),
        ...(target.fit === 'inside' ? { withoutEnlargement: true } : {}),
        background: { r: 0, g: 0, b: 0, alpha: 0 },
      })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw badRequest('uploads.not_an_image');
  }
  const name = `${randomBytes(16).toString('hex')}.webp`;
  const folder = join(uploadsDir(context), target.folder);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, name), output);
  return `uploads/${target.folder}/${name}`;
}

/** Deletes a stored picture by its relative path; unknown or foreign paths are ignored. */
export async function removeImage(context: AppContext, relative: string | null | undefined) {
  const parts = relative?.split('/');
  if (!parts || parts.length !== 3 || parts[0] !== 'uploads') return;
  const [, folder = '', file = ''] = parts;
  if (!FOLDERS.has(folder) || !FILE_NAME.test(file)) return;
  await unlink(join(uploadsDir(context), folder, file)).catch(() => undefined);
}

/** GET /uploads/{folder}/{file}: the stored pictures, immutable (a new upload gets a new name). */
export function registerUploadRoutes(app: FastifyInstance, context: AppContext) {
  app.get<{ Params: { folder: string; file: string } }>(
    '/uploads/:folder/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const { folder, file } = request.params;
      const path = join(uploadsDir(context), folder, file);
      const exists =
        FOLDERS.has(folder) &&
        FILE_NAME.test(file) &&
        (await stat(path).then(
          (info) => info.isFile(),
          () => false,
        ));
      if (!exists) {
        return reply
          .status(404)
          .send({ status: 'error', message: translate(requestLanguage(request), 'errors.not_found') });
      }
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('cross-origin-resource-policy', 'cross-origin')
        .type('image/webp')
        .send(createReadStream(path));
    },
  );
}
