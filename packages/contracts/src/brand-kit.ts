import { z } from 'zod';
import { successBody } from './envelope.js';
import { IdSchema, LanguageFieldSchema, TokenSchema } from './fields.js';
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

/** How many overlay images a channel's library keeps (issue 45): enough for a show, bounded on disk. */
export const BRAND_OVERLAY_LIBRARY_LIMIT = 10;

/** One image of the overlay library, switched on and off the stream from the Live panel. */
export const BrandOverlaySchema = z.object({ id: z.number().int(), url: z.string() });
export type BrandOverlay = z.infer<typeof BrandOverlaySchema>;

/** A channel's brand kit as its broadcasts and its edit form see it; pictures are same-origin paths. */
export const BrandKitSchema = z.object({
  accent_color: z.string(),
  name_tag_style: z.enum(NAME_TAG_STYLES),
  logo_url: z.string().nullable(),
  background_url: z.string().nullable(),
  /** The kit's standard overlay: on every broadcast unless its host picks another one (or none). */
  overlay_url: z.string().nullable(),
  /** The overlay library, oldest first (at most BRAND_OVERLAY_LIBRARY_LIMIT). */
  overlays: z.array(BrandOverlaySchema).optional(),
});
export type BrandKit = z.infer<typeof BrandKitSchema>;

export const DEFAULT_BRAND_KIT: BrandKit = {
  accent_color: DEFAULT_ACCENT_COLOR,
  name_tag_style: 'classic',
  logo_url: null,
  background_url: null,
  overlay_url: null,
  overlays: [],
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
/** Adds one image to the overlay library (multipart `file`), fitted like the standard overlay. */
export const AddBrandOverlayInputSchema = z.object({ ...base, file: UploadedFileSchema.optional() });
export const RemoveBrandOverlayInputSchema = z.object({ ...base, id: IdSchema });
export const BrandKitBodySchema = successBody(BrandKitSchema);
