import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { stopChild } from '../../platform/managed-child.js';
import type { ProcessLedger } from './child-processes.js';
import { keepTail, readProgress } from './ffmpeg-progress.js';
import type { Quality } from './capacity.js';
import type { FrameReading } from './frame-rate-watch.js';
import type { VirtualScreen } from './virtual-screen.js';

/**
 * The one encode of a broadcast: the virtual screen and sound card into H.264 + AAC, muxed twice by
 * the same ffmpeg (the tee muxer, ADR 021): MPEG-TS on stdout for the recording and the watch page,
 * FLV on fd 4 for the destinations. The FLV carries its sequence headers from the first byte, so no
 * second ffmpeg has to probe the stream to learn them. Nothing here ever waits for a reader.
 */
/**
 * Grabbed frames waiting for the encoder: every one queued is a frame of delay for every change on
 * the picture (a layout cut, a scene). 16 (half a second at 30 fps) let a busy machine build up to
 * 533 ms of backlog that only drained when the encoder ran faster than real time; 4 (133 ms at 30,
 * 67 at 60) bounds it, and a grabber kept waiting takes its next picture fresh (ADR 039).
 */
const GRAB_QUEUE_FRAMES = 4;
/** How much later the sound's timestamps are set than the sound card gives them (see start()). */
const SOUND_STAMP_OFFSET_S = 0.25;

export class Encoder extends EventEmitter<{ data: [Buffer]; flv: [Buffer]; progress: [FrameReading]; exit: [string] }> {
  private child: ChildProcess | undefined;
  fps = 0;
  private isStopping = false;

  constructor(
    private readonly ledger: ProcessLedger,
    private readonly screen: VirtualScreen,
    private readonly quality: Quality,
    /**
     * Seconds added to every timestamp: an encoder started again after one that failed continues
     * its clock, so the recording and the destinations see one continuous stream.
     */
    private readonly timestampOffsetS = 0,
  ) {
    super();
  }

  start() {
    const { width, height, fps, videoKbps } = this.quality;
    const { size } = this.screen;
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      // A short queue of grabbed frames: when the encoder falls behind (a busy machine), the grabber
      // waits and frames are skipped, rather than 512 frames (17 s) queueing up as delay.
      '-thread_queue_size',
      String(GRAB_QUEUE_FRAMES),
      '-f',
      'x11grab',
      '-draw_mouse',
      '0',
      '-framerate',
      String(fps),
      '-video_size',
      `${size.width}x${size.height}`,
      '-i',
      `${this.screen.display}.0+0,0`,
      // ffmpeg emits each picture only once it holds sound stamped as late, and the sound card's
      // stamps trail the screen's: stamped 0.25 s later, pictures go out at once. Measured with a
      // page that flashes and beeps together (ADR 014): sound and picture stay as aligned as before.
      '-itsoffset',
      String(SOUND_STAMP_OFFSET_S),
      '-thread_queue_size',
      '512',
      '-f',
      'pulse',
      '-ac',
      '2',
      '-ar',
      '48000',
      '-i',
      this.screen.audioSource,
      ...(width === size.width ? [] : ['-vf', `scale=${width}:${height}`]),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-tune',
      'zerolatency',
      '-pix_fmt',
      'yuv420p',
      '-r',
      String(fps),
      // A keyframe every second (the platforms ask for 2 s or less) and never in between: the HLS
      // viewers' segments are one keyframe each, so they can play 2 s behind the live edge (ADR 018).
      '-g',
      String(fps),
      '-keyint_min',
      String(fps),
      '-sc_threshold',
      '0',
      '-b:v',
      `${videoKbps}k`,
      '-maxrate',
      `${videoKbps}k`,
      '-bufsize',
      `${videoKbps}k`,
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      // FLV wants the codec parameters apart (sequence headers); MPEG-TS still gets them in-band,
      // repeated before every keyframe by its muxer.
      '-flags',
      '+global_header',
      ...['-map', '0:v:0', '-map', '1:a:0'],
      '-output_ts_offset',
      this.timestampOffsetS.toFixed(3),
      '-progress',
      'pipe:3',
      '-stats_period',
      '1',
      '-f',
      'tee',
      // Each packet leaves as soon as it is muxed (max_delay=0: no interleaving queue, flush each).
      '[f=mpegts:max_delay=0:flush_packets=1]pipe\\:1|[f=flv:flvflags=no_duration_filesize:flush_packets=1]pipe\\:4',
    ];
    const child = this.ledger.spawn('ffmpeg', args, {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, PULSE_SERVER: this.screen.pulseServer, XAUTHORITY: this.screen.xauthority },
    });
    this.child = child;
    const tail = keepTail(child.stderr);
    child.stdout?.on('data', (chunk: Buffer) => this.emit('data', chunk));
    (child.stdio[4] as Readable).on('data', (chunk: Buffer) => this.emit('flv', chunk));
    readProgress(child.stdio[3] as Readable, (progress) => {
      this.fps = progress.fps;
      this.emit('progress', { frame: progress.frame, dupFrames: progress.dupFrames, at: Date.now() });
    });
    child.once('exit', (code, signal) => {
      if (!this.isStopping) this.emit('exit', `encoder exited (${code ?? signal}): ${tail()}`);
    });
  }

  async stop() {
    this.isStopping = true;
    await stopChild(this.child, 3000, 'SIGINT');
  }
}
