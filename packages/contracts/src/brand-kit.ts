import { z } from 'zod';
import { successBody } from './envelope.js';
import { LanguageFieldSchema, TokenSchema } from './fields.js';
import { UploadedFileSchema } from './form-values.js';

/** How the people's names are drawn on the broadcast (ADR 046). */
export const NAME_TAG_STYLES = ['classic', 'bold', 'minimal'] as const;
export type NameTagStyle = (typeof NAME_TAG_STYLES)[number];

/** The pictures of a brand kit: the logo in the corner, the stage's background, an image over the picture. */
export const BRAND_IMAGE_KINDS = ['logo', 'background', 'overlay'] as const;
export type BrandImageKind = (typeof BRAND_IMAGE_KINDS)[number];

export const DEFAULT_ACCENT_COLOR = '#2563eb';
const HexColorSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { message: 'accent_color' })
  .transform((value) => value.toLowerCase());

/** A channel's brand kit as its broadcasts and its edit form see it; pictures are same-origin paths. */
export const BrandKitSchema = z.object({
  accent_color: z.string(),
  name_tag_style: z.enum(NAME_TAG_STYLES),
  logo_url: z.string().nullable(),
  background_url: z.string().nullable(),
  overlay_url: z.string().nullable(),
});
export type BrandKit = z.infer<typeof BrandKitSchema>;

export const DEFAULT_BRAND_KIT: BrandKit = {
  accent_color: DEFAULT_ACCENT_COLOR,
  name_tag_style: 'classic',
  logo_url: null,
  background_url: null,
  overlay_url: null,
};

const base = { token: TokenSchema, lng: LanguageFieldSchema };
export const BrandKitInputSchema = z.object(base);
export const UpdateBrandKitInputSchema = z.object({
  ...base,
  accent_color: HexColorSchema.optional(),
  name_tag_style: z.enum(NAME_TAG_STYLES).optional(),
});
export const UploadBrandImageInputSchema = z.object({
  ...base,
  kind: z.enum(BRAND_IMAGE_KINDS),
  file: UploadedFileSchema.optional(),
});
export const RemoveBrandImageInputSchema = z.object({ ...base, kind: z.enum(BRAND_IMAGE_KINDS) });
export const BrandKitBodySchema = successBody(BrandKitSchema);
