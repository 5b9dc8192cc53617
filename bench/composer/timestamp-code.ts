/**
 * The clock a fake participant paints into its camera, and how it is read back from the broadcast.
 * The canvas (640×480) is magenta with 8×3 black or white cells: 20 bits of milliseconds (modulo
 * 2^20) and a 4-bit checksum, so a frame caught mid-paint is rejected rather than misread. Cells are
 * kept off the bottom third, where the tile's name label sits. On every SYNC_PERIOD_S-th whole second
 * the canvas turns white for SYNC_FLASH_MS while the microphones beep (BEEPING_MICROPHONE_SCRIPT), so
 * that sound against picture can be read from the broadcast (av-sync.ts).
 */
export const CANVAS = { width: 640, height: 480 };
export const CELLS = { columns: 8, rows: 3, left: 40, top: 60, width: 560, height: 300 };
/** Size the received video is decoded at to read the code. */
export const FRAME = { width: 480, height: 270 };
export const SYNC_PERIOD_S = 2;
export const SYNC_FLASH_MS = 100;
/** Page source: whether this moment (Date.now()) is one of the flash's and the beep's. */
export const IS_SYNC_MOMENT = `(now) => Math.floor(now / 1000) % ${SYNC_PERIOD_S} === 0 && now % 1000 < ${SYNC_FLASH_MS}`;
/** Page source: the 24 bits painted at this moment, the low 20 for the time and 4 of checksum. */
const CODE_AT = `(now) => {
  const time = now % (1 << 20);
  let sum = 0;
  for (let shift = 0; shift < 20; shift += 4) sum += (time >> shift) & 0xf;
  return time | ((sum & 0xf) << 20);
}`;
// The same source text compiled for the light clock (light-clock.ts), which paints in Node.
export const isSyncMoment = new Function(`return ${IS_SYNC_MOMENT}`)() as (now: number) => boolean;
export const codeAt = new Function(`return ${CODE_AT}`)() as (now: number) => number;

/**
 * Runs in the clock participant's page (before its scripts): its camera becomes the painted clock.
 * Plain source text: a function would be sent with the helpers tsx adds to it (`__name`), which do
 * not exist in the page.
 */
export const CLOCK_CAMERA_SCRIPT = `(() => {
  const size = ${JSON.stringify(CANVAS)};
  const cells = ${JSON.stringify(CELLS)};
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  const codeAt = ${CODE_AT};
  const isSyncMoment = ${IS_SYNC_MOMENT};
  const paint = () => {
    const now = Date.now();
    if (isSyncMoment(now)) {
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, size.width, size.height);
      return;
    }
    const code = codeAt(now);
    context.fillStyle = '#ff00ff';
    context.fillRect(0, 0, size.width, size.height);
    const cellWidth = cells.width / cells.columns;
    const cellHeight = cells.height / cells.rows;
    for (let bit = 0; bit < cells.columns * cells.rows; bit++) {
      context.fillStyle = (code >> bit) & 1 ? '#ffffff' : '#000000';
      const column = bit % cells.columns;
      const row = Math.floor(bit / cells.columns);
      context.fillRect(cells.left + column * cellWidth, cells.top + row * cellHeight, cellWidth, cellHeight);
    }
  };
  setInterval(paint, 10);
  const stream = canvas.captureStream(30);
  const previous = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  // The app may ask for the camera alone: the microphone is asked for only when audio is wanted
  // too, since getUserMedia with neither rejects (a TypeError).
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    if (!constraints || !constraints.video) return previous(constraints);
    const media = constraints.audio ? await previous({ audio: constraints.audio }) : new MediaStream();
    media.addTrack(stream.getVideoTracks()[0].clone());
    return media;
  };
})();`;

/**
 * Runs in every participant's page (before CLOCK_CAMERA_SCRIPT): its microphone becomes a tone that
 * is switched on while the clock's canvas flashes, from the same kind of 10-ms timer that paints it
 * (scheduling ahead on the audio clock went wrong: headless Chromium's audio clock moves in bursts).
 * The audio context stays suspended, and the microphone silent, until the page's first click.
 */
export const BEEPING_MICROPHONE_SCRIPT = `(() => {
  const isSyncMoment = ${IS_SYNC_MOMENT};
  let sound;
  const microphone = () => {
    if (sound) return sound;
    const audio = new AudioContext({ sampleRate: 48000 });
    const output = audio.createMediaStreamDestination();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 1000;
    gain.gain.value = 0;
    tone.connect(gain).connect(output);
    tone.start();
    let isOn = false;
    setInterval(() => {
      if (audio.state !== 'running') void audio.resume();
      const shouldBeOn = isSyncMoment(Date.now());
      if (shouldBeOn === isOn) return;
      isOn = shouldBeOn;
      gain.gain.setValueAtTime(isOn ? 1 : 0, 0);
    }, 10);
    sound = output.stream;
    return sound;
  };
  const previous = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    if (!constraints || !constraints.audio) return previous(constraints);
    const media = constraints.video ? await previous({ video: constraints.video }) : new MediaStream();
    media.addTrack(microphone().getAudioTracks()[0].clone());
    return media;
  };
})();`;

/**
 * Reads the painted code from one decoded frame (`channels` 3 for rgb24, 4 for a canvas's RGBA) of
 * any size: the clock's magenta area is found first (a composer tile puts the camera anywhere in
 * the broadcast, scaled), then its cells are sampled. Answers the milliseconds, or -1 when the code
 * is not there or unreadable (caught mid-paint, checksum wrong). Plain source text, like the
 * camera's, so that a viewer page reads its decoded frames with the very same code.
 */
export const READER_SOURCE = `(frame, width, height, channels) => {
  const size = ${JSON.stringify(CANVAS)};
  const cells = ${JSON.stringify(CELLS)};
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * channels;
      if (frame[at] > 150 && frame[at + 1] < 100 && frame[at + 2] > 150) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    }
  }
  if (right - left < 40 || bottom - top < 30) return -1;
  const scaleX = (right - left + 1) / size.width;
  const scaleY = (bottom - top + 1) / size.height;
  const cellWidth = cells.width / cells.columns;
  const cellHeight = cells.height / cells.rows;
  let code = 0;
  for (let bit = 0; bit < cells.columns * cells.rows; bit++) {
    const column = bit % cells.columns;
    const row = Math.floor(bit / cells.columns);
    const x = Math.round(left + (cells.left + (column + 0.5) * cellWidth) * scaleX);
    const y = Math.round(top + (cells.top + (row + 0.5) * cellHeight) * scaleY);
    const at = (y * width + x) * channels;
    const luma = 0.299 * frame[at] + 0.587 * frame[at + 1] + 0.114 * frame[at + 2];
    if (luma > 128) code |= 1 << bit;
  }
  const time = code & 0xfffff;
  let sum = 0;
  for (let shift = 0; shift < 20; shift += 4) sum += (time >> shift) & 0xf;
  return code >>> 20 === (sum & 0xf) ? time : -1;
}`;

type Reader = (frame: Uint8Array, width: number, height: number, channels: number) => number;
// Compiled once from the very source text the viewer pages run (bench/channel-player/viewer-probe.ts).
const reader = new Function(`return ${READER_SOURCE}`)() as Reader;

/** The painted code of one decoded rgb24 frame (FRAME size), or undefined when it is not there or unreadable. */
export function readCode(frame: Buffer): number | undefined {
  const time = reader(frame, FRAME.width, FRAME.height, 3);
  return time < 0 ? undefined : time;
}

/** The painted clock holds milliseconds modulo 2^20 (about 17 minutes): a delay is taken modulo that too. */
export function delayFrom(code: number, now: number) {
  const modulo = 1 << 20;
  return ((((now % modulo) - code) % modulo) + modulo) % modulo;
}
