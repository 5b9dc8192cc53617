import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

export interface Certificate {
  cert: string;
  key: string;
  /** Base64 SHA-256 of the certificate's SubjectPublicKeyInfo: what Chromium's SPKI allow-list takes. */
  spki: string;
}

/** A self-signed certificate for `address` (an IP), made with openssl in `folder`. */
export function selfSignedCertificate(folder: string, address: string): Certificate {
  const cert = join(folder, 'turn-cert.pem');
  const key = join(folder, 'turn-key.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=meetcast-test-turn'],
      ...['-addext', `subjectAltName=IP:${address}`],
    ],
    { stdio: 'pipe' },
  );
  const publicKey = new X509Certificate(readFileSync(cert)).publicKey.export({ type: 'spki', format: 'der' });
  return { cert, key, spki: createHash('sha256').update(publicKey).digest('base64') };
}

export interface Coturn {
  /** The addresses to give the app server as TURN_URL. */
  urls: string[];
  log(): string;
  stop(): void;
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * An operator's own coturn, as the README's "TURN over TLS" section sets it up: the TURN REST API's
 * shared secret, a plain port and a TLS port, on `address` only, relaying from there too.
 */
export async function startCoturn(options: {
  folder: string;
  address: string;
  secret: string;
  port: number;
  tlsPort: number;
  relayPorts: [number, number];
  certificate: Certificate;
}): Promise<Coturn> {
  const { folder, address, port, tlsPort } = options;
  const logFile = join(folder, 'turn.log');
  const lines = [
    `listening-ip=${address}`,
    `relay-ip=${address}`,
    `listening-port=${port}`,
    `tls-listening-port=${tlsPort}`,
    `cert=${options.certificate.cert}`,
    `pkey=${options.certificate.key}`,
    'no-tlsv1',
    'no-tlsv1_1',
    'no-dtls',
    'fingerprint',
    'use-auth-secret',
    `static-auth-secret=${options.secret}`,
    'realm=meetcast-test',
    `min-port=${options.relayPorts[0]}`,
    `max-port=${options.relayPorts[1]}`,
    'no-cli',
    'no-multicast-peers',
    `userdb=${join(folder, 'turndb')}`,
    `pidfile=${join(folder, 'turnserver.pid')}`,
    `log-file=${logFile}`,
    'simple-log',
    'no-stdout-log',
  ];
  const config = join(folder, 'turnserver.conf');
  writeFileSync(config, `${lines.join('\n')}\n`);
  const child: ChildProcess = spawn('turnserver', ['-c', config], { stdio: 'ignore' });
  const log = () => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '(no log)';
    }
  };
  const deadline = Date.now() + 15_000;
  while (!(await accepts(address, tlsPort))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`coturn did not start:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    urls: [
      `turn:${address}:${port}?transport=udp`,
      `turn:${address}:${port}?transport=tcp`,
      `turns:${address}:${tlsPort}?transport=tcp`,
    ],
    log,
    stop: () => child.kill('SIGTERM'),
  };
}
