// What a large audience asks (ADR 034): POST /api/get-broadcast-viewer.php at 200 connections against
// a bare Fastify route and tokenverify.php in the same run, while a studio asks get-broadcast.php as its
// host, one call after another; prints the studio's latencies under that load and the load average.
// Budget: >= 2,000 requests/s, p99 < 100 ms, and the studio's call stays fast meanwhile.
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { percentile } from './percentile.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

interface ServerInfo {
  port: number;
  slug?: string;
  token?: string;
}

async function startServer(script: string): Promise<{ child: ChildProcess; info: ServerInfo }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(script, import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('{')) return { child, info: JSON.parse(line) as ServerInfo };
  }
  throw new Error(`${script} exited before it listened`);
}

async function measure(url: string, body: string, seconds = DURATION_SECONDS) {
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: FORM,
    body,
  });
  // Counted, not thrown: on a machine shared with other work the figures are printed anyway.
  const failures = result.non2xx + result.errors + result.timeouts;
  return { rps: result.requests.average, p99: result.latency.p99, failures };
}

/** The studio's own call, one after another until `until` settles: each call's time in ms. */
async function studioCalls(url: string, body: string, until: Promise<unknown>) {
  const times: number[] = [];
  let isRunning = true;
  void until.finally(() => (isRunning = false));
  while (isRunning) {
    const started = performance.now();
    const response = await fetch(url, { method: 'POST', headers: FORM, body });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`studio call answered ${response.status}`);
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return times;
}

const describeTimes = (times: number[]) =>
  `p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms over ${times.length} calls`;

const bare = await startServer('./servers/bare.ts');
const meetcast = await startServer('./servers/broadcast-viewer.ts');
try {
  const base = `http://127.0.0.1:${meetcast.info.port}/api`;
  const viewerBody = `meetId=${meetcast.info.slug}`;
  const studioBody = `token=${meetcast.info.token}&meetId=${meetcast.info.slug}`;
  // Warm up both routes so that JIT and caches do not favour the one measured second.
  await measure(`${base}/get-broadcast-viewer.php`, viewerBody, 2);
  await measure(`${base}/tokenverify.php`, `token=${meetcast.info.token}`, 2);
  const studioIdle = await studioCalls(
    `${base}/get-broadcast.php`,
    studioBody,
    new Promise((resolve) => setTimeout(resolve, 2000)),
  );
  const baseline = await measure(`http://127.0.0.1:${bare.info.port}/bare`, `token=${meetcast.info.token}`);
  const tokenverify = await measure(`${base}/tokenverify.php`, `token=${meetcast.info.token}`);
  const load = loadavg();
  const viewers = measure(`${base}/get-broadcast-viewer.php`, viewerBody);
  const studioLoaded = await studioCalls(`${base}/get-broadcast.php`, studioBody, viewers);
  const viewer = await viewers;
  const row = (name: string, figures: { rps: number; p99: number; failures: number }) =>
    console.log(
      `${name.padEnd(28)} ${figures.rps.toFixed(0).padStart(6)} req/s, p99 ${figures.p99} ms, ${figures.failures} failed`,
    );
  console.log(
    `${CONNECTIONS} connections, ${DURATION_SECONDS} s each; load average ${load.map((x) => x.toFixed(2)).join(' ')}`,
  );
  row('bare Fastify route', baseline);
  row('tokenverify.php', tokenverify);
  row('get-broadcast-viewer.php', viewer);
  console.log(
    `ratio ${(viewer.rps / baseline.rps).toFixed(2)}x the bare route, ${(viewer.rps / tokenverify.rps).toFixed(2)}x tokenverify.php`,
  );
  console.log(`studio get-broadcast.php idle:          ${describeTimes(studioIdle)}`);
  console.log(`studio get-broadcast.php under viewers: ${describeTimes(studioLoaded)}`);
  const isWithin = viewer.rps >= 2000 && viewer.p99 < 100 && viewer.failures === 0;
  console.log(`budget: >= 2000 req/s and p99 < 100 ms: ${isWithin ? 'met' : 'NOT met'}`);
  process.exitCode = isWithin ? 0 : 1;
} finally {
  bare.child.kill();
  meetcast.child.kill();
}
