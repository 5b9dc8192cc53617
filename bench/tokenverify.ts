// Throughput and p99 of POST /api/tokenverify.php against a bare Fastify route, measured in one run.
// Budget: at least 0.5x the bare route's requests per second, p99 under 20 ms at 50 connections.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function startServer(script: string): Promise<{ child: ChildProcess; info: { port: number; token?: string } }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(script, import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (line.startsWith('{')) return { child, info: JSON.parse(line) as { port: number; token?: string } };
  }
  throw new Error(`${script} exited before it listened`);
}

async function measure(url: string, body: string) {
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const bare = await startServer('./servers/bare.ts');
const meetcast = await startServer('./servers/meetcast.ts');
try {
  const body = `token=${meetcast.info.token}`;
  // Warm both up so that JIT and caches do not favour the one measured second.
  await autocannon({
    url: `http://127.0.0.1:${meetcast.info.port}/api/tokenverify.php`,
    method: 'POST',
    duration: 2,
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const baseline = await measure(`http://127.0.0.1:${bare.info.port}/bare`, body);
  const ours = await measure(`http://127.0.0.1:${meetcast.info.port}/api/tokenverify.php`, body);
  const ratio = ours.rps / baseline.rps;
  console.log(`bare Fastify route     ${baseline.rps.toFixed(0)} req/s, p99 ${baseline.p99} ms`);
  console.log(`tokenverify.php        ${ours.rps.toFixed(0)} req/s, p99 ${ours.p99} ms`);
  console.log(
    `ratio ${ratio.toFixed(2)}x (budget >= 0.50x), p99 ${ours.p99} ms (budget < 20 ms), ${CONNECTIONS} connections`,
  );
  process.exitCode = ratio >= 0.5 && ours.p99 < 20 ? 0 : 1;
} finally {
  bare.child.kill();
  meetcast.child.kill();
}
