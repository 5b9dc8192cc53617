import { z } from 'zod';
import { formInt } from './fields.js';

/** A yes/no field: form posts send `1`/`0` or `true`/`false`; JSON may send a real boolean. */
export const formBoolean = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false', 'on', 'off'])])
  .transform((value) => value === true || value === '1' || value === 'true' || value === 'on');

/** A page number and a page size for list calls. */
export const pagination = {
  page: formInt(z.number().min(1).max(100_000)).optional(),
  per_page: formInt(z.number().min(1).max(100)).optional(),
};

/** What list calls answer besides their rows. */
export const PageInfoSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});

/**
 * An uploaded file. Multipart form posts attach files to the body as bytes; anything else in that
 * field (a text value, a missing part) is refused with a 400.
 */
export const UploadedFileSchema = z
  .custom<Uint8Array>((value) => value instanceof Uint8Array, { message: 'file_required' })
  .meta({ type: 'string', format: 'binary', description: 'A file sent as a multipart/form-data part' });

/** A slug in a public address: lower-case letters, digits and single hyphens, 3 to 64 characters. */
export const PublicSlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(3)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

/**
 * A list or object that form posts send as one JSON-encoded field and JSON bodies send as it is.
 * Typed as what a client may send: the value itself, or its JSON text.
 */
export function jsonInForm<T extends z.ZodType>(schema: T, options: { emptyAs?: unknown } = {}) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    if (options.emptyAs !== undefined && value.trim() === '') return options.emptyAs;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }, schema) as unknown as z.ZodPipe<z.ZodTransform<unknown, z.input<T> | string>, T>;
}
