/** Where relative image paths (avatars, channel covers) live; the spec joins them to an image base. */
export const IMAGE_BASE = (import.meta.env.VITE_IMAGE_BASE as string | undefined) ?? '/';

export function imageUrl(path: string | null | undefined): string | undefined {
  if (!path) return undefined;
  if (/^(https?:|data:|blob:)/.test(path)) return path;
  return `${IMAGE_BASE.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
