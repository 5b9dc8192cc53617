import { chmodSync, mkdirSync, statSync } from 'node:fs';

/** No bit for group and others on anything this process or its children create. */
const OWNER_ONLY_UMASK = 0o077;
const OWNER_ONLY_FOLDER = 0o700;

export type DataDirPrivacy = { state: 'private' } | { state: 'closed' } | { state: 'open'; reason: unknown };

/**
 * DATA_DIR holds the database, the recordings, the uploads, the live HLS segments, the generated
 * secrets key and the composers' sockets: it is the server's user's alone. It is created 0700, or
 * closed to 0700 when an administrator's `mkdir` left it open; and every file the server and its
 * children (ffmpeg, Janus, Chromium, Xvfb, PulseAudio) create from now on is the user's only, which
 * is the process umask's work: the children take their own file modes.
 *
 * Answers whether DATA_DIR was private already, was closed now, or stays open because the server's
 * user does not own it (it is not this process's to change then; the caller warns).
 */
export function makeDataDirPrivate(dataDir: string): DataDirPrivacy {
  process.umask(OWNER_ONLY_UMASK);
  mkdirSync(dataDir, { recursive: true, mode: OWNER_ONLY_FOLDER });
  if ((statSync(dataDir).mode & 0o077) === 0) return { state: 'private' };
  try {
    chmodSync(dataDir, OWNER_ONLY_FOLDER);
    return { state: 'closed' };
  } catch (error) {
    return { state: 'open', reason: error };
  }
}
