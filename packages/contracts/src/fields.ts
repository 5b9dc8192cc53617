import { z } from 'zod';

// Form posts carry every value as text, so numeric fields accept digits as well as numbers.
// PostgreSQL refuses NUL in text, and control characters have no place in a name.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function text(options: { min?: number; max: number }) {
  return z
    .string()
    .trim()
    .min(options.min ?? 1)
    .max(options.max)
    .refine((value) => !CONTROL_CHARACTERS.test(value), { message: 'control_characters' });
}

// Bidi embeddings, overrides and isolates: one of them in a chat line or a name re-orders what follows
// it for every reader (a sentence shown backwards, `\u202Etxt.exe` read as `exe.txt`). Right-to-left
// text needs none of them: the reader's own bidi algorithm orders it, inside `dir="auto"` elements.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** The text without bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069). */
export const withoutBidiControls = (value: string) => value.replace(BIDI_CONTROLS, '');

/**
 * Text a person writes for others to read beside other people's (chat lines, names): as `text`, with
 * the bidi controls taken out before it is trimmed and measured, so the rest reads as it was typed.
 */
export function userText(options: { min?: number; max: number }) {
  return z
    .string()
    .overwrite(withoutBidiControls)
    .trim()
    .min(options.min ?? 1)
    .max(options.max)
    .refine((value) => !CONTROL_CHARACTERS.test(value), { message: 'control_characters' });
}

export function optionalUserText(max: number) {
  return z
    .string()
    .overwrite(withoutBidiControls)
    .trim()
    .max(max)
    .refine((value) => !CONTROL_CHARACTERS.test(value), { message: 'control_characters' })
    .optional();
}

export function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max)
    .refine((value) => !CONTROL_CHARACTERS.test(value), { message: 'control_characters' })
    .optional();
}

export const EmailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((value) => value.toLowerCase());

/** At least 8 characters; argon2 takes the rest, 128 keeps hashing cheap against abuse. */
export const PasswordSchema = z.string().min(8).max(128);

export const UsernameSchema = userText({ min: 2, max: 40 });

/** Optional in the schema so that a missing or wrong token answers 401, not 400. */
export const TokenSchema = z.string().max(512).optional();

export const CodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/);

export function formInt(schema: z.ZodNumber = z.number()) {
  return z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d{1,15}$/)
        .transform(Number),
    ])
    .pipe(schema.int());
}

/** Whole seconds since the Unix epoch. */
export const EpochSecondsSchema = formInt(z.number().min(0).max(32503680000));

export const IdSchema = formInt(z.number().min(1).max(2147483647));

/** The `lng` a request may carry so that its messages come back translated. */
export const LanguageFieldSchema = z.string().max(10).optional();

function splitList(value: unknown) {
  if (value === undefined || value === null) return undefined;
  const values = Array.isArray(value) ? value : [value];
  return values.flatMap((entry) =>
    typeof entry === 'string'
      ? entry
          .split(/[\s,;]+/)
          .map((part) => part.trim())
          .filter(Boolean)
      : [entry],
  );
}

/** A list sent as repeated form fields, one comma/semicolon/space separated field, or a JSON array. */
export function listOf<T extends z.ZodType>(item: T, options: { min?: number; max: number }) {
  return z.preprocess(
    splitList,
    z
      .array(item)
      .min(options.min ?? 0)
      .max(options.max),
  );
}
