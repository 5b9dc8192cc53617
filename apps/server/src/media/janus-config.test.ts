import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../env.js';
import { janusSessionTimeoutSeconds, writeJanusConfig } from './janus-config.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The `general` timeouts of the janus.jcfg written for a server with this reconnect grace. */
function writtenTimeouts(reconnectGraceSeconds: string) {
  const config = loadConfig({ ROOM_RECONNECT_GRACE_SECONDS: reconnectGraceSeconds });
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-janus-config-'));
  folders.push(folder);
  const file = writeJanusConfig({
    folder,
    port: 8188,
    adminKey: 'admin-key',
    apiSecret: 'api-secret',
    rtpPortRange: '20000-40000',
    nat11Mapping: undefined,
    sessionTimeoutSeconds: janusSessionTimeoutSeconds(config.roomReconnectGraceSeconds),
  });
  const text = readFileSync(file, 'utf8');
  const read = (key: string) => Number(new RegExp(`^\\s*${key} = (\\d+)$`, 'm').exec(text)?.[1]);
  return {
    grace: config.roomReconnectGraceSeconds,
    session: read('session_timeout'),
    reclaim: read('reclaim_session_timeout'),
  };
}

describe('the managed Janus configuration', () => {
  it.each(['1', '120', '240'])(
    'keeps a silent or disconnected session past a %s-s reconnect grace, the page’s keepalive gap and the room’s ping timeout',
    (grace) => {
      const { grace: seconds, session, reclaim } = writtenTimeouts(grace);
      // The last keepalive may be 25 s before the cut; the room notices the drop up to 30 s after it.
      expect(session).toBeGreaterThanOrEqual(seconds + 25 + 30);
      expect(reclaim).toBeGreaterThanOrEqual(seconds + 25 + 30);
    },
  );

  it('follows the grace: a longer grace keeps sessions longer', () => {
    expect(writtenTimeouts('240').session).toBeGreaterThan(writtenTimeouts('120').session);
  });
});
