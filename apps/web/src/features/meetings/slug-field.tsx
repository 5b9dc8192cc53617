import { AddMeetingInputSchema, SLUG_MAX, SLUG_MIN } from '@meetcast/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/text-field';
import { roomAddressPreview } from './meetings-api';
import type { useSlugCheck } from './use-slug-check';

/** The calls' slug, which must hold something; the server judges the rest as it is typed (`useSlugCheck`). */
export const MeetingSlugSchema = AddMeetingInputSchema.shape.slug.refine((slug) => slug.trim() !== '');

/** Latin letters that do not decompose into a base letter and an accent. */
const LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** A meeting link made from a name: "Team Sync · Q3" → "team-sync-q3" (accents dropped). */
export function slugFromName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (letter) => LETTERS[letter] ?? letter)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return slug;
}

/**
 * The link proposed from the meeting's name (as Zoom and Cal.com do), until the person edits the link
 * themselves. Every new value, proposed or typed, is checked with the server (`use-slug-check.ts`). A name
 * without Latin letters or digits gets "meeting-" and a few random characters instead.
 */
export function useProposedSlug(slugCheck: ReturnType<typeof useSlugCheck>, existing?: string) {
  const [slug, setSlug] = useState(existing ?? '');
  const [isTyped, setIsTyped] = useState(existing !== undefined);
  const [fallback] = useState(() => `meeting-${Math.random().toString(36).slice(2, 8)}`);

  const onNameChange = (name: string) => {
    if (isTyped) return;
    const proposed = name.trim() === '' ? '' : slugFromName(name);
    const value = proposed.length >= SLUG_MIN || name.trim() === '' ? proposed : fallback;
    if (value === slug) return;
    setSlug(value);
    if (value === '') slugCheck.reset();
    else slugCheck.check(value);
  };
  const onSlugChange = (value: string) => {
    setIsTyped(true);
    setSlug(value);
    if (value === existing) slugCheck.reset();
    else slugCheck.check(value);
  };
  /**
   * A name the form proposed itself (an instant meeting's, from the time) gets the random link: two
   * proposals of the same minute must not ask for the same one.
   */
  const onProposedName = () => {
    if (isTyped) return;
    setSlug(fallback);
    slugCheck.check(fallback);
  };
  return { slug, onNameChange, onSlugChange, onProposedName };
}

/** The meeting link field with its server check's message and the room address it gives. */
export function SlugField({
  slug,
  error,
  onChange,
}: {
  slug: string;
  error: string | undefined;
  onChange(value: string): void;
}) {
  const { t } = useTranslation('meetings');
  return (
    <TextField
      label={t('form.slug')}
      name="slug"
      value={slug}
      autoComplete="off"
      spellCheck={false}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      hint={t('form.slug_hint', { url: roomAddressPreview(slug) })}
    />
  );
}
