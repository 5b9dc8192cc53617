import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { backgroundKey, backgroundOptions, isSameBackground, type BackgroundChoice } from './background-choice';
import { ACCEPTED_IMAGE_TYPES, drawCovering } from './background-image';
import { drawScene } from './background-scenes';
import type { BackgroundControl } from './use-background-effect';

const THUMB_WIDTH = 64;
const THUMB_HEIGHT = 48;

/** A head and shoulders in front of the thumbnail's background, so each option reads as "behind you". */
function drawPerson(context: CanvasRenderingContext2D) {
  context.filter = 'none';
  context.fillStyle = '#334155';
  context.beginPath();
  context.arc(THUMB_WIDTH / 2, THUMB_HEIGHT * 0.42, THUMB_HEIGHT * 0.17, 0, Math.PI * 2);
  context.fill();
  context.beginPath();
  context.ellipse(THUMB_WIDTH / 2, THUMB_HEIGHT, THUMB_WIDTH * 0.27, THUMB_HEIGHT * 0.36, 0, Math.PI, 0);
  context.fill();
}

/** A room behind the person: a shelf, a picture and a lamp, sharp or blurred. */
function drawRoom(context: CanvasRenderingContext2D, isBlurred: boolean) {
  context.filter = isBlurred ? 'blur(2.5px)' : 'none';
  context.fillStyle = '#e2d6c3';
  context.fillRect(-4, -4, THUMB_WIDTH + 8, THUMB_HEIGHT + 8);
  context.fillStyle = '#8b5e3c';
  context.fillRect(4, 10, 16, 30);
  context.fillStyle = '#3b82f6';
  context.fillRect(44, 8, 14, 10);
  context.fillStyle = '#f59e0b';
  context.fillRect(48, 24, 8, 16);
}

function Thumbnail({ choice, image }: { choice: BackgroundChoice; image: ImageBitmap | undefined }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvasRef.current?.getContext('2d');
    if (!context) return;
    if (choice.kind === 'scene') drawScene(context, choice.scene, THUMB_WIDTH, THUMB_HEIGHT);
    else if (choice.kind === 'image' && image) drawCovering(context, image, THUMB_WIDTH, THUMB_HEIGHT);
    else drawRoom(context, choice.kind === 'blur');
    drawPerson(context);
  }, [choice, image]);
  return <canvas ref={canvasRef} width={THUMB_WIDTH} height={THUMB_HEIGHT} aria-hidden className="block size-full" />;
}

const TILE_CLASS =
  'block aspect-[4/3] w-full overflow-hidden rounded-md border-2 border-slate-200 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary-500 dark:border-slate-700';
const CAPTION_CLASS = 'w-full text-center text-[11px] leading-tight break-words text-slate-600 dark:text-slate-300';

/**
 * The "Background" choice of the device settings: no effect, blur, one of our scenes, or a picture
 * of the user's own (added from a file, kept in this browser). The change applies live to the
 * self-view and the published camera, and is remembered.
 */
export function BackgroundPicker({ control }: { control: BackgroundControl }) {
  const { t } = useTranslation('room');
  const name = useId();
  return (
    <fieldset className="col-span-full min-w-0 space-y-1">
      <legend className="mb-1 block text-xs font-medium text-slate-600 dark:text-slate-300">
        {t('devices.background')}
      </legend>
      <div className="grid max-w-sm grid-cols-5 gap-1.5">
        {backgroundOptions(Boolean(control.image)).map((option) => {
          const key = backgroundKey(option);
          return (
            <label key={key} className="flex min-w-0 cursor-pointer flex-col items-center gap-1">
              <input
                type="radio"
                name={name}
                value={key}
                checked={isSameBackground(option, control.choice)}
                onChange={() => control.choose(option)}
                className="peer sr-only"
              />
              <span className={`${TILE_CLASS} peer-checked:border-primary-500 dark:peer-checked:border-primary-400`}>
                <Thumbnail choice={option} image={control.image} />
              </span>
              <span
                className={`${CAPTION_CLASS} peer-checked:font-semibold peer-checked:text-slate-900 dark:peer-checked:text-white`}
              >
                {t(`devices.background_${key}`)}
              </span>
            </label>
          );
        })}
        <label className="flex min-w-0 cursor-pointer flex-col items-center gap-1">
          <input
            type="file"
            accept={ACCEPTED_IMAGE_TYPES}
            className="peer sr-only"
            onChange={(event) => {
              const file = event.target.files?.[0];
              // Cleared, so that choosing the same file again still reads it.
              event.target.value = '';
              if (file) control.addImage(file);
            }}
          />
          <span
            className={`${TILE_CLASS} flex items-center justify-center border-dashed text-xl text-slate-500 dark:text-slate-400`}
            aria-hidden
          >
            +
          </span>
          <span className={CAPTION_CLASS}>{t('devices.background_image_add')}</span>
        </label>
      </div>
    </fieldset>
  );
}
