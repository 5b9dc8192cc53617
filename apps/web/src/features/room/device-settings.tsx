import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { cn } from '../../lib/cn';
import { BackgroundPicker } from './effects/background-picker';
import { LevelMeter } from './media/local-media';
import type { LocalMedia } from './use-local-media';

export function MicLevel({ track, isOn }: { track: MediaStreamTrack | undefined; isOn: boolean }) {
  const { t } = useTranslation('room');
  const meterRef = useRef<HTMLDivElement>(null);
  const barRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Ten readings a second go straight to the element: the page is not rendered again for each.
    const show = (level: number) => {
      const percent = Math.round(level * 100);
      meterRef.current?.setAttribute('aria-valuenow', String(percent));
      // Scaled, not resized: the browser animates it without laying the page out at every frame.
      if (barRef.current) barRef.current.style.transform = `scaleX(${percent / 100})`;
    };
    if (!track || !isOn) return undefined;
    const meter = new LevelMeter(track);
    const timer = setInterval(() => show(meter.level()), 100);
    return () => {
      clearInterval(timer);
      meter.close();
      show(0);
    };
  }, [track, isOn]);
  return (
    <div
      ref={meterRef}
      role="meter"
      aria-label={t('prejoin.mic_level')}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={0}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
    >
      <div
        ref={barRef}
        className="h-full origin-left bg-emerald-500 transition-transform duration-100 rtl:origin-right"
        style={{ transform: 'scaleX(0)' }}
      />
    </div>
  );
}

function DevicePicker({
  label,
  devices,
  value,
  onChange,
}: {
  label: string;
  devices: MediaDeviceInfo[];
  value: string | undefined;
  onChange: (deviceId: string) => void;
}) {
  const id = useId();
  const { t } = useTranslation('room');
  // A remembered device that is not plugged in shows as the first one, which the browser then uses.
  const isListed = devices.some((device) => device.deviceId === value);
  return (
    <div className="min-w-0 space-y-1">
      <label htmlFor={id} className="block text-xs font-medium text-slate-600 dark:text-slate-300">
        {label}
      </label>
      <select
        id={id}
        value={isListed ? value : (devices[0]?.deviceId ?? '')}
        onChange={(event) => onChange(event.target.value)}
        disabled={devices.length === 0}
        className="block w-full rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      >
        {devices.length === 0 && <option value="">{t('prejoin.no_device')}</option>}
        {devices.map((device, index) => (
          <option key={device.deviceId || index} value={device.deviceId}>
            {device.label || t('prejoin.device_n', { n: index + 1 })}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Noise suppression on the microphone, applied live and remembered. */
function NoiseSwitch({ control }: { control: LocalMedia['noise'] }) {
  const { t } = useTranslation('room');
  const hintId = useId();
  return (
    <label className="flex cursor-pointer items-start gap-2 text-sm text-slate-700 dark:text-slate-200">
      <input
        type="checkbox"
        checked={control.isOn}
        onChange={(event) => control.setOn(event.target.checked)}
        aria-describedby={hintId}
        className="mt-0.5 size-4 shrink-0 accent-primary-600"
      />
      <span className="min-w-0">
        {t('devices.noise_suppression')}
        <span id={hintId} className="block text-xs text-slate-500 dark:text-slate-400">
          {t('devices.noise_hint')}
        </span>
      </span>
    </label>
  );
}

/**
 * Camera, microphone (with its level) and speaker pickers, shared by the pre-join screen and the
 * call's device menu. The speaker picker is left out where the browser cannot choose an output, the
 * background picker where the browser cannot process camera frames.
 */
export function DeviceSettings({
  local,
  className,
  withLevel = false,
}: {
  local: LocalMedia;
  className?: string;
  withLevel?: boolean;
}) {
  const { t } = useTranslation('room');
  // A device that refuses to start leaves the previous one in use; the picker shows that one again.
  const choose = (kind: 'videoInput' | 'audioInput' | 'audioOutput', id: string) =>
    void local.chooseDevice(kind, id).catch(() => toast.error(t('devices.not_started')));
  return (
    <div className={cn('grid gap-3', className)}>
      <DevicePicker
        label={t('prejoin.camera')}
        devices={local.devices.videoInputs}
        value={local.choice.videoInput ?? local.videoTrack?.getSettings().deviceId}
        onChange={(id) => choose('videoInput', id)}
      />
      <div className="min-w-0 space-y-2">
        <DevicePicker
          label={t('prejoin.microphone')}
          devices={local.devices.audioInputs}
          value={local.choice.audioInput ?? local.audioTrack?.getSettings().deviceId}
          onChange={(id) => choose('audioInput', id)}
        />
        {withLevel && <MicLevel track={local.audioTrack} isOn={local.isAudioOn} />}
        {local.noise.isSupported && <NoiseSwitch control={local.noise} />}
      </div>
      {local.canChooseSpeaker && (
        <DevicePicker
          label={t('prejoin.speaker')}
          devices={local.devices.audioOutputs}
          value={local.choice.audioOutput}
          onChange={(id) => choose('audioOutput', id)}
        />
      )}
      {local.background.isSupported && <BackgroundPicker control={local.background} />}
    </div>
  );
}
