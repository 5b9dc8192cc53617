import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CoturnSettings {
  folder: string;
  secret: string;
  port: number;
  relayPortRange: string;
  realm: string;
  /** This machine's public address when it is behind NAT (PUBLIC_IP): relay candidates carry it. */
  externalIp: string | undefined;
  tls: { port: number; cert: string; key: string } | undefined;
  /** Addresses of this machine: the relay may reach Janus there, though they are private. */
  ownAddresses: string[];
}

/**
 * A relay anyone with a credential can use must not become a way into the networks behind it
 * (coturn's own advice): private, loopback, link-local and multicast peers are refused, this
 * machine's own addresses excepted, where Janus listens.
 */
const DENIED_PEERS = [
  '0.0.0.0-0.255.255.255',
  '10.0.0.0-10.255.255.255',
  '100.64.0.0-100.127.255.255',
  '127.0.0.0-127.255.255.255',
  '169.254.0.0-169.254.255.255',
  '172.16.0.0-172.31.255.255',
  '192.0.0.0-192.0.0.255',
  '192.168.0.0-192.168.255.255',
  '198.18.0.0-198.19.255.255',
  '::1',
  'fc00::-fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  'fe80::-febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
];

/** Writes the configuration of the coturn we start ourselves (ADR 035); returns its path. */
export function writeCoturnConfig(settings: CoturnSettings): string {
  const [minPort, maxPort] = settings.relayPortRange.split('-');
  const lines = [
    `listening-port=${settings.port}`,
    'fingerprint',
    'use-auth-secret',
    `static-auth-secret=${settings.secret}`,
    `realm=${settings.realm}`,
    `min-port=${minPort}`,
    `max-port=${maxPort}`,
    ...(settings.externalIp ? [`external-ip=${settings.externalIp}`] : []),
    ...(settings.tls
      ? [
          `tls-listening-port=${settings.tls.port}`,
          `cert=${settings.tls.cert}`,
          `pkey=${settings.tls.key}`,
          'no-tlsv1',
          'no-tlsv1_1',
        ]
      : ['no-tls', 'no-dtls']),
    'no-cli',
    'no-software-attribute',
    'no-multicast-peers',
    'no-rfc5780',
    'no-stun-backward-compatibility',
    'response-origin-only-with-rfc5780',
    ...DENIED_PEERS.map((range) => `denied-peer-ip=${range}`),
    ...settings.ownAddresses.map((address) => `allowed-peer-ip=${address}`),
    // Everything coturn writes stays in DATA_DIR, which is this user's only.
    `userdb=${join(settings.folder, 'turndb')}`,
    `pidfile=${join(settings.folder, 'turnserver.pid')}`,
    `log-file=${join(settings.folder, 'turn.log')}`,
    'simple-log',
    'no-stdout-log',
  ];
  const file = join(settings.folder, 'turnserver.conf');
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  return file;
}
