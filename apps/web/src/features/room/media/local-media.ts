/** The camera, microphone and screen tracks of this browser, shared by the pre-join screen and the call. */
export interface DeviceChoice {
  audioInput?: string;
  videoInput?: string;
  audioOutput?: string;
}

const VIDEO_CONSTRAINTS: MediaTrackConstraints = {
  width: { ideal: 640 },
  height: { ideal: 480 },
  frameRate: { ideal: 24, max: 30 },
};

export async function captureCamera(deviceId?: string): Promise<MediaStreamTrack> {
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { ...VIDEO_CONSTRAINTS, ...(deviceId ? { deviceId: { exact: deviceId } } : {}) },
  });
  const [track] = stream.getVideoTracks();
  if (!track) throw new Error('no camera track');
  return track;
}

export async function captureMicrophone(deviceId?: string): Promise<MediaStreamTrack> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: true, noiseSuppression: true, ...(deviceId ? { deviceId: { exact: deviceId } } : {}) },
  });
  const [track] = stream.getAudioTracks();
  if (!track) throw new Error('no microphone track');
  return track;
}

export async function captureScreen(): Promise<MediaStreamTrack> {
  const stream = await navigator.mediaDevices.getDisplayMedia({
    video: { frameRate: { ideal: 15, max: 30 } },
    audio: false,
  });
  const [track] = stream.getVideoTracks();
  if (!track) throw new Error('no screen track');
  track.contentHint = 'detail';
  return track;
}

export interface DeviceList {
  audioInputs: MediaDeviceInfo[];
  videoInputs: MediaDeviceInfo[];
  audioOutputs: MediaDeviceInfo[];
}

export async function listDevices(): Promise<DeviceList> {
  const devices = await navigator.mediaDevices.enumerateDevices();
  return {
    audioInputs: devices.filter((d) => d.kind === 'audioinput'),
    videoInputs: devices.filter((d) => d.kind === 'videoinput'),
    audioOutputs: devices.filter((d) => d.kind === 'audiooutput'),
  };
}

/**
 * Starts an AudioContext made before the page was clicked: browsers start such a context suspended
 * (silent) until the person interacts with the page, so it resumes at the first click or key press.
 */
export function resumeWhenAllowed(context: AudioContext) {
  if (context.state !== 'suspended') return;
  void context.resume().catch(() => undefined);
  const resume = () => {
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
  };
  for (const type of ['pointerdown', 'keydown'] as const) document.addEventListener(type, resume, { once: true });
}

/** A 0..1 loudness reading of an audio track, sampled on demand. */
export class LevelMeter {
  private readonly context = new AudioContext();
  private readonly analyser: AnalyserNode;
  private readonly samples: Uint8Array<ArrayBuffer>;

  constructor(track: MediaStreamTrack) {
    const source = this.context.createMediaStreamSource(new MediaStream([track]));
    this.analyser = this.context.createAnalyser();
    this.analyser.fftSize = 512;
    resumeWhenAllowed(this.context);
    this.samples = new Uint8Array(new ArrayBuffer(this.analyser.fftSize));
    source.connect(this.analyser);
  }

  level(): number {
    this.analyser.getByteTimeDomainData(this.samples);
    let sum = 0;
    for (const sample of this.samples) {
      const centred = (sample - 128) / 128;
      sum += centred * centred;
    }
    return Math.min(1, Math.sqrt(sum / this.samples.length) * 4);
  }

  close() {
    void this.context.close();
  }
}
