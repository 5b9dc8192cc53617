import { storage } from '../media/device-memory';
/**
 * What the camera shows behind the person: nothing changed, a blur, one of our drawn scenes, or the
 * user's own picture (background-image.ts).
 * Remembered per browser like the devices (media/device-memory.ts), so the next join starts with it.
 */
export const SCENES = ['sunset', 'lagoon', 'meadow'] as const;
export type SceneId = (typeof SCENES)[number];

export type BackgroundChoice =
  { kind: 'none' } | { kind: 'blur' } | { kind: 'scene'; scene: SceneId } | { kind: 'image' };

export const NO_BACKGROUND: BackgroundChoice = { kind: 'none' };

const STORAGE_KEY = 'meetcast.background';

export const OWN_IMAGE: BackgroundChoice = { kind: 'image' };

/** The picker's options in order: None, Blur, each scene, then the user's picture when there is one. */
export function backgroundOptions(hasImage: boolean): BackgroundChoice[] {
  return [
    NO_BACKGROUND,
    { kind: 'blur' },
    ...SCENES.map((scene) => ({ kind: 'scene', scene }) as const),
    ...(hasImage ? [OWN_IMAGE] : []),
  ];
}

/** A stable string per choice, for radio values, React keys and translation keys. */
export function backgroundKey(choice: BackgroundChoice): string {
  return choice.kind === 'scene' ? `scene_${choice.scene}` : choice.kind;
}

export function isSameBackground(a: BackgroundChoice, b: BackgroundChoice): boolean {
  return backgroundKey(a) === backgroundKey(b);
}

/** Reads a stored value; anything unknown (an older version, a hand edit) means no effect. */
export function parseBackground(stored: string | null | undefined): BackgroundChoice {
  if (!stored) return NO_BACKGROUND;
  try {
    const value: unknown = JSON.parse(stored);
    if (typeof value !== 'object' || value === null) return NO_BACKGROUND;
    const { kind, scene } = value as { kind?: unknown; scene?: unknown };
    if (kind === 'blur') return { kind: 'blur' };
    if (kind === 'image') return OWN_IMAGE;
    if (kind === 'scene' && SCENES.includes(scene as SceneId)) return { kind: 'scene', scene: scene as SceneId };
    return NO_BACKGROUND;
  } catch {
    return NO_BACKGROUND;
  }
}

export function rememberedBackground(): BackgroundChoice {
  return parseBackground(storage()?.getItem(STORAGE_KEY));
}

export function rememberBackground(choice: BackgroundChoice) {
  storage()?.setItem(STORAGE_KEY, JSON.stringify(choice));
}
