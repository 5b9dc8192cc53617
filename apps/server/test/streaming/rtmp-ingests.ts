import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { stopChild } from '../../src/platform/managed-child.js';
import { waitFor } from '../../src/streaming/composer/child-processes.js';

/**
 * nginx with its RTMP module, a real ingest that says no like the platforms do: a second publisher
 * of a stream already published gets `NetStream.Publish.BadName`.
 */
export class NginxRtmp {
  private child: ChildProcess | undefined;
  private log = '';

  constructor(
    readonly port: number,
    private readonly folder: string,
  ) {}

  async start() {
    mkdirSync(this.folder, { recursive: true });
    const config = join(this.folder, 'nginx.conf');
    writeFileSync(
      config,
      [
        'load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;',
        'daemon off;',
        'master_process off;',
        `pid ${join(this.folder, 'nginx.pid')};`,
        'error_log stderr info;',
        'events {}',
        `rtmp { server { listen 127.0.0.1:${this.port}; chunk_size 4096; application live { live on; } } }`,
      ].join('\n'),
    );
    const child = spawn('nginx', ['-p', this.folder, '-c', config, '-e', 'stderr'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child = child;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      this.log += text;
    });
    await waitFor(() => canConnect(this.port), 10_000, 'nginx-rtmp listening');
    return this;
  }

  /** What nginx said: it logs the stream names it was asked to publish. */
  get output() {
    return this.log;
  }

  async stop() {
    await stopChild(this.child, 5000, 'SIGQUIT');
  }
}

function canConnect(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A self-signed certificate for `localhost` (and 127.0.0.1), made by openssl for one test run. */
export function selfSignedCertificate(folder: string) {
  mkdirSync(folder, { recursive: true });
  const key = join(folder, 'key.pem');
  const cert = join(folder, 'cert.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'],
      ...['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

/** RTMPS in front of a plain RTMP receiver, as the platforms' TLS terminators are. */
export async function startTlsProxy(port: number, targetPort: number, certificate: { key: Buffer; cert: Buffer }) {
  const sockets = new Set<Socket>();
  const server: Server = createTlsServer(certificate, (secure) => {
    const plain = connect({ host: '127.0.0.1', port: targetPort });
    sockets.add(secure);
    sockets.add(plain);
    secure.pipe(plain).pipe(secure);
    const end = () => {
      secure.destroy();
      plain.destroy();
    };
    secure.on('error', end).on('close', end);
    plain.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port that accepts connections and never says a word: an ingest that hangs. */
export async function startSilentPort(port: number) {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
