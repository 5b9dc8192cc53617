import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SOCKET_PING_INTERVAL_MS, SOCKET_PING_TIMEOUT_MS } from '../platform/socket-heartbeat.js';

const JANUS_LIB = '/usr/lib/x86_64-linux-gnu/janus';

export interface ManagedJanusSettings {
  folder: string;
  port: number;
  adminKey: string;
  apiSecret: string;
  rtpPortRange: string;
  /** Public address Janus puts in its host candidates (a real deployment behind 1:1 NAT). */
  nat11Mapping: string | undefined;
  /** Janus' `session_timeout` and `reclaim_session_timeout`: see janusSessionTimeoutSeconds. */
  sessionTimeoutSeconds: number;
  libraryFolder?: string;
}

/** janus.js sends a keepalive this often (its default, and the web's janus-api.ts): the last one may come this long before a cut. */
const PAGE_KEEPALIVE_SECONDS = 25;
/** Socket.IO's ping interval and timeout: the room notices a cut this late, and the grace starts then. */
const ROOM_DROP_NOTICED_SECONDS = (SOCKET_PING_INTERVAL_MS + SOCKET_PING_TIMEOUT_MS) / 1000;
/** Janus' watchdog looks every 2 s; a few seconds more so that a session is never gone just before the grace's end. */
const WATCHDOG_SECONDS = 5;

/**
 * How long Janus keeps a session nobody speaks for (`session_timeout`) and one whose transport went
 * (`reclaim_session_timeout`): past the end of the room's reconnect grace (ADR 032), so that a page
 * back within it claims its session (janus.js `reconnect`) instead of joining again. Silence starts
 * at the page's last keepalive, up to 25 s before the cut; the grace starts when the room notices
 * the drop, up to 30 s after it. The room kicks the feed of someone whose grace ended without them.
 */
export function janusSessionTimeoutSeconds(reconnectGraceSeconds: number): number {
  return reconnectGraceSeconds + PAGE_KEEPALIVE_SECONDS + ROOM_DROP_NOTICED_SECONDS + WATCHDOG_SECONDS;
}

const quote = (value: string) => JSON.stringify(value);

/**
 * Writes the configuration folder of a Janus we start ourselves: the VideoRoom and Streaming plugins
 * (the latter for channel viewers, ADR 011) and the WebSocket transport only, bound to loopback, creation of rooms locked behind the admin key and
 * every request behind the API secret (only our server, which proxies browsers, knows both).
 */
export function writeJanusConfig(settings: ManagedJanusSettings): string {
  const lib = settings.libraryFolder ?? JANUS_LIB;
  mkdirSync(settings.folder, { recursive: true, mode: 0o700 });
  const nat = [
    'nice_debug = false',
    'ignore_mdns = true',
    'full_trickle = true',
    'ice_ignore_list = "vmnet"',
    // ICE over TCP for browsers that may not use UDP (a firewall, a no-UDP policy); Janus supports it
    // in ICE-Lite mode only (its sample configuration's warning), which an SFU reached directly can use.
    'ice_lite = true',
    'ice_tcp = true',
    ...(settings.nat11Mapping ? [`nat_1_1_mapping = ${quote(settings.nat11Mapping)}`, 'keep_private_host = true'] : []),
  ];
  const files: Record<string, string> = {
    'janus.jcfg': `general: {
  configs_folder = ${quote(settings.folder)}
  plugins_folder = ${quote(`${lib}/plugins`)}
  transports_folder = ${quote(`${lib}/transports`)}
  events_folder = ${quote(`${lib}/events`)}
  loggers_folder = ${quote(`${lib}/loggers`)}
  debug_level = 3
  api_secret = ${quote(settings.apiSecret)}
  server_name = "meetcast"
  session_timeout = ${settings.sessionTimeoutSeconds}
  reclaim_session_timeout = ${settings.sessionTimeoutSeconds}
  protected_folders = ["/bin", "/boot", "/dev", "/etc", "/lib", "/proc", "/sbin", "/sys", "/usr", "/var"]
}
media: {
  rtp_port_range = ${quote(settings.rtpPortRange)}
  no_media_timer = 2
  slowlink_threshold = 4
  min_nack_queue = 200
}
nat: {
  ${nat.join('\n  ')}
}
plugins: {
  disable = "libjanus_audiobridge.so,libjanus_duktape.so,libjanus_echotest.so,libjanus_lua.so,libjanus_nosip.so,libjanus_recordplay.so,libjanus_sip.so,libjanus_textroom.so,libjanus_videocall.so,libjanus_voicemail.so"
}
transports: {
  disable = "libjanus_http.so,libjanus_mqtt.so,libjanus_nanomsg.so,libjanus_pfunix.so,libjanus_rabbitmq.so"
}
loggers: {
  disable = "libjanus_jsonlog.so"
}
events: {
  broadcast = false
}
`,
    'janus.transport.websockets.jcfg': `general: {
  json = "compact"
  ws = true
  ws_port = ${settings.port}
  ws_ip = "127.0.0.1"
  wss = false
}
admin: {
  admin_ws = false
  admin_wss = false
}
`,
    // Mountpoints are created by the composer for each broadcast; their RTP ports listen on loopback
    // only (set per mountpoint), so nobody else can inject media into a live stream.
    'janus.plugin.streaming.jcfg': `general: {
  admin_key = ${quote(settings.adminKey)}
  rtp_port_range = ${quote(streamingPortRange(settings.rtpPortRange))}
  events = false
}
`,
    'janus.plugin.videoroom.jcfg': `general: {
  admin_key = ${quote(settings.adminKey)}
  lock_rtp_forward = true
  events = false
}
`,
  };
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(settings.folder, name), content, { mode: 0o600 });
  }
  return join(settings.folder, 'janus.jcfg');
}

/**
 * The ports mountpoints receive the composer's RTP on: the top tenth of the media range (both sides
 * bind before use, so a port one of them holds is simply skipped by the other).
 */
export function streamingPortRange(rtpPortRange: string): string {
  const match = /^(\d+)-(\d+)$/.exec(rtpPortRange.trim());
  if (!match) return '40000-40999';
  const low = Number(match[1]);
  const high = Number(match[2]);
  const size = Math.max(2, Math.floor((high - low) / 10));
  return `${high - size}-${high}`;
}
