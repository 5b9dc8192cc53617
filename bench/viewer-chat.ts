// Viewer chat under an audience (its budget below): BENCH_VIEWERS (default 500) Socket.IO viewers in
// one broadcast for BENCH_SECONDS (default 120) while BENCH_POSTERS guests (default 25) post over HTTP,
// BENCH_RATE messages per second in all (default 5). Prints messages lost (budget 0) and the delivery
// time from the post's start to each viewer's event, p50/p95 (budget p95 < 150 ms), and the server's
// CPU and memory. Viewers, posters and the server share this machine: figures include its load.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { VIEWER_CHAT_EVENT, VIEWER_CHAT_PROTOCOL_VERSION, type ViewerChatEvent } from '@meetcast/contracts';
import { io, type Socket } from 'socket.io-client';

const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 120);
const POSTERS = Number(process.env.BENCH_POSTERS ?? 25);
const RATE = Number(process.env.BENCH_RATE ?? 5);
const CLOCK_TICKS = 100; // getconf CLK_TCK on Linux

interface ServerInfo {
  port: number;
  slug: string;
  pid: number;
}

async function startServer(): Promise<{ child: ChildProcess; info: ServerInfo }> {
  const script = new URL('./servers/viewer-chat.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('{')) return { child, info: JSON.parse(line) as ServerInfo };
  }
  throw new Error('the viewer-chat server exited before it listened');
}

const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
  return Number(line?.[1] ?? 0) / 1024;
};
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

function connectedAll(sockets: Socket[]) {
  return Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve, reject) => {
          if (socket.connected) return resolve();
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        }),
    ),
  );
}

async function post(base: string, name: string, fields: Record<string, string>) {
  const response = await fetch(`${base}/api/${name}`, { method: 'POST', body: new URLSearchParams(fields) });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown> } };
}

const { child, info } = await startServer();
const base = `http://127.0.0.1:${info.port}`;
const sockets: Socket[] = [];
try {
  /** Per message text: when its post started. Per viewer: the message texts it received, and when. */
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const received = new Map<string, number>();
  for (let index = 0; index < VIEWERS; index += 1) {
    // Joined in batches of 50: a busy machine times out 500 handshakes started in the same instant.
    if (index > 0 && index % 50 === 0) await connectedAll(sockets);
    const socket = io(`${base}/viewer-chat`, {
      auth: { protocol: VIEWER_CHAT_PROTOCOL_VERSION, meetId: info.slug },
      transports: ['websocket'],
      forceNew: true,
      timeout: 60_000,
    });
    // Checked by shape only: 500 schema parses per message would measure this process, not the server.
    socket.on(VIEWER_CHAT_EVENT, (payload: ViewerChatEvent) => {
      const event = payload;
      if (event.type !== 'message.created') return;
      const started = sentAt.get(event.message.text);
      if (started !== undefined) latencies.push(performance.now() - started);
      received.set(event.message.text, (received.get(event.message.text) ?? 0) + 1);
    });
    sockets.push(socket);
  }
  await connectedAll(sockets);
  console.log(`${VIEWERS} viewers connected`);

  const posters = await Promise.all(
    Array.from({ length: POSTERS }, async () => {
      const answer = await post(base, 'get-viewer-chat-identity.php', {});
      return String(answer.body.data?.viewer_token);
    }),
  );
  const cpuBefore = cpuTicks(info.pid);
  const rssBefore = rssMb(info.pid);
  const startedAt = performance.now();
  let sequence = 0;
  let refused = 0;
  const inFlight: Promise<void>[] = [];
  while (performance.now() - startedAt < SECONDS * 1000) {
    const text = `bench message ${sequence}`;
    const poster = posters[sequence % POSTERS]!;
    sequence += 1;
    sentAt.set(text, performance.now());
    inFlight.push(
      post(base, 'post-viewer-chat.php', { meetId: info.slug, viewer_token: poster, display_name: 'Bench', text }).then(
        (answer) => {
          if (answer.status !== 200) {
            refused += 1;
            sentAt.delete(text);
          }
        },
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000 / RATE));
  }
  await Promise.all(inFlight);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const elapsed = (performance.now() - startedAt) / 1000;
  const cpu = ((cpuTicks(info.pid) - cpuBefore) / CLOCK_TICKS / elapsed) * 100;

  const posted = sentAt.size;
  let lost = 0;
  for (const text of sentAt.keys()) lost += VIEWERS - (received.get(text) ?? 0);
  latencies.sort((a, b) => a - b);
  console.log(`${posted} messages posted (${refused} refused) in ${elapsed.toFixed(0)} s to ${VIEWERS} viewers`);
  console.log(`deliveries ${latencies.length} of ${posted * VIEWERS}; lost ${lost} (budget 0)`);
  console.log(
    `delivery p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p95 ${percentile(latencies, 0.95).toFixed(1)} ms (budget < 150 ms), max ${latencies.at(-1)?.toFixed(1)} ms`,
  );
  console.log(
    `server CPU ${cpu.toFixed(1)} % of one core; RSS ${rssBefore.toFixed(0)} → ${rssMb(info.pid).toFixed(0)} MB`,
  );
  process.exitCode = lost === 0 && refused === 0 && percentile(latencies, 0.95) < 150 ? 0 : 1;
} finally {
  for (const socket of sockets) socket.close();
  child.kill();
}
