import { timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { AppConfig } from '../../env.js';
import { secretsBoxFor } from '../../platform/secrets-box.js';

/** A viewer grant opens the media connection within this time; the connection then lasts. */
export const VIEWER_GRANT_SECONDS = 60;

type KeyConfig = Pick<AppConfig, 'dataDir' | 'streaming'>;

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * `{broadcast id}.{expiry}.{mac}`: signed, not stored, so that any server process of the
 * installation accepts it. It names one broadcast and lets its holder watch it, nothing else; it
 * is never a Janus secret (ADR 011).
 */
export function issueViewerGrant(config: KeyConfig, broadcastId: number, nowMs = Date.now()) {
  const expiresAt = Math.floor(nowMs / 1000) + VIEWER_GRANT_SECONDS;
  const signed = `${broadcastId}.${expiresAt}`;
  return { grant: `${signed}.${secretsBoxFor(config).sign('viewer-grant', signed)}`, expiresAt };
}

/** The broadcast a current, untampered grant names; undefined otherwise. */
export function readViewerGrant(config: KeyConfig, grant: string | null, nowMs = Date.now()): number | undefined {
  const match = /^(\d{1,10})\.(\d{1,12})\.([0-9a-f]{32})$/.exec(grant ?? '');
  if (!match) return undefined;
  const [, id, expiresAt, mac] = match;
  if (Number(expiresAt) * 1000 < nowMs) return undefined;
  const expected = secretsBoxFor(config).sign('viewer-grant', `${id}.${expiresAt}`);
  return sameText(expected, mac!) ? Number(id) : undefined;
}

/**
 * `p{broadcast id}.{expiry}.{mac}`, signed for another purpose than a viewer grant (ADR 047): the
 * studio's preview of its own broadcast, given only to the host and co-hosts. It opens the
 * mountpoint while the broadcast runs whatever the meeting's visibility; a viewer grant never reads
 * as one, nor one as a viewer grant.
 */
export function issuePreviewGrant(config: KeyConfig, broadcastId: number, nowMs = Date.now()) {
  const expiresAt = Math.floor(nowMs / 1000) + VIEWER_GRANT_SECONDS;
  const signed = `${broadcastId}.${expiresAt}`;
  return { grant: `p${signed}.${secretsBoxFor(config).sign('preview-grant', signed)}`, expiresAt };
}

/** The broadcast a current, untampered preview grant names; undefined otherwise. */
export function readPreviewGrant(config: KeyConfig, grant: string | null, nowMs = Date.now()): number | undefined {
  const match = /^p(\d{1,10})\.(\d{1,12})\.([0-9a-f]{32})$/.exec(grant ?? '');
  if (!match) return undefined;
  const [, id, expiresAt, mac] = match;
  if (Number(expiresAt) * 1000 < nowMs) return undefined;
  const expected = secretsBoxFor(config).sign('preview-grant', `${id}.${expiresAt}`);
  return sameText(expected, mac!) ? Number(id) : undefined;
}

/**
 * The Janus mountpoint of a broadcast: derived, so every process finds it without storing it, and
 * keyed per installation, so two installations sharing a Janus do not collide.
 */
export function mountpointId(config: KeyConfig, broadcastId: number): number {
  return parseInt(secretsBoxFor(config).sign('mountpoint', String(broadcastId)).slice(0, 8), 16) & 0x7fffffff || 1;
}

/** The unguessable part of a live broadcast's HLS address. */
export function liveStreamKey(config: KeyConfig, broadcastId: number): string {
  return secretsBoxFor(config).sign('live-hls', String(broadcastId));
}

export function isLiveStreamKey(config: KeyConfig, broadcastId: number, key: string): boolean {
  return sameText(liveStreamKey(config, broadcastId), key);
}

export const liveStreamsFolder = (dataDir: string) => join(dataDir, 'live');
export const liveStreamFolder = (config: KeyConfig, broadcastId: number) =>
  join(liveStreamsFolder(config.dataDir), `${broadcastId}-${liveStreamKey(config, broadcastId)}`);
export const liveStreamUrl = (config: KeyConfig, broadcastId: number) =>
  `/api/live/${broadcastId}/${liveStreamKey(config, broadcastId)}/index.m3u8`;
