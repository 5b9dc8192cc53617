import { join } from 'node:path';

/**
 * The HLS files a live broadcast writes for its viewers (ADR 011, ADR 037), all copied from the one
 * encode by one ffmpeg: no second encode.
 * - `index.m3u8`: the low-latency playlist, 1-s segments (one keyframe each, ADR 018), a few listed.
 * - `dvr.m3u8`: the rewind window, longer segments so that a 30-minute list stays small (≈ 20 kB,
 *   read every few seconds by a viewer who went back, not every second).
 * - `audio.m3u8`: the sound alone, for a viewer on a poor connection (≈ 130 kbit/s instead of the picture's Mbit/s).
 */
export interface HlsWindow {
  /** How far back a viewer can go while the broadcast is live. */
  dvrWindowSeconds: number;
  dvrSegmentSeconds: number;
}

export const HLS_WINDOW: HlsWindow = { dvrWindowSeconds: 32 * 60, dvrSegmentSeconds: 4 };

const LIVE_LIST_SIZE = 8;
const AUDIO_SEGMENT_SECONDS = 2;
const AUDIO_LIST_SIZE = 6;

/** The file names the HLS route serves; segment numbers count from the muxer's start in µs (never reused, ADR 034). */
export const HLS_FILE = /^((index|dvr|audio)\.m3u8|(segment|dvr|audio)-\d{1,20}\.ts)$/;

/** How many segments the rewind playlist lists: never less than the window. */
export const dvrListSize = (window: HlsWindow) => Math.ceil(window.dvrWindowSeconds / window.dvrSegmentSeconds);

function hlsOutput(folder: string, name: string, segmentSeconds: number, listSize: number, map: string[]) {
  return [
    ...map,
    ...['-c', 'copy', '-f', 'hls'],
    ...['-hls_time', String(segmentSeconds), '-hls_list_size', String(listSize)],
    // Numbered from the microsecond this muxer starts: a muxer started again for the same broadcast
    // (a restart, a composer taking over) never reuses a segment name an HTTP cache keeps (ADR 034).
    ...['-hls_start_number_source', 'epoch_us'],
    // Segments that left the list are deleted: the folder holds the window, not the whole broadcast.
    ...['-hls_flags', 'delete_segments+omit_endlist+temp_file+independent_segments'],
    ...['-hls_segment_filename', join(folder, `${name === 'index' ? 'segment' : name}-%d.ts`)],
    join(folder, `${name}.m3u8`),
  ];
}

/** The ffmpeg output options (after its input) that write the three playlists into `folder`. */
export function hlsRenditionArgs(folder: string, window: HlsWindow = HLS_WINDOW): string[] {
  const picture = ['-map', '0:v:0', '-map', '0:a:0?'];
  return [
    // Segments can only start at a keyframe; the encode puts one every second (ADR 018), so each
    // live segment is a second long and starts with one.
    ...hlsOutput(folder, 'index', 1, LIVE_LIST_SIZE, picture),
    ...hlsOutput(folder, 'dvr', window.dvrSegmentSeconds, dvrListSize(window), picture),
    ...hlsOutput(folder, 'audio', AUDIO_SEGMENT_SECONDS, AUDIO_LIST_SIZE, ['-map', '0:a:0']),
  ];
}
