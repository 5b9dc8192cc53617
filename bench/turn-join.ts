// Join with UDP blocked (TURN over TCP) against the join over UDP, in one run (ADR 035; budget in
// docs/benchmarks/turn-join.md): a guest in a network namespace of its own joins a meeting whose
// host already publishes, alternately over an open network (ICE over UDP, no TURN) and over one that
// drops all UDP (TURN over TCP through the managed coturn); each join is timed from the join request
// to the first video packet of the host received. Prints both medians and their ratio (budget ≤ 1.5).
// The guests are werift callers (packages/testkit/src/netns/light-caller.ts), the same as the
// network tests'. Needs root (ip netns), coturn, Janus and ffmpeg.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { meetings, users } from '@meetcast/db';
import { buildApp } from '@meetcast/server';
import { CallerProcess } from '@meetcast/testkit/netns/caller-process';
import { canMakeNetworks, NetworkLab, type Place } from '@meetcast/testkit/netns/network-lab';
import { freePort } from '@meetcast/server/tooling';
import { percentile } from './percentile';
import { benchConfig } from './servers/bench-config';

const JOINS = Number(process.env.BENCH_JOINS ?? 6);

if (!canMakeNetworks) {
  console.error('turn-join: needs root (ip netns)');
  process.exit(1);
}
const lab = new NetworkLab();
const places = { open: lab.open(), udpBlocked: lab.udpBlocked() };
const { config, dataDir } = benchConfig({
  LOG_LEVEL: 'warn',
  HOST: '0.0.0.0',
  TURN: 'on',
  TURN_PORT: String(await freePort()),
  TURN_RELAY_PORT_RANGE: '53000-53200',
  PUBLIC_URL: `http://${places.open.serverAddress}:3000`,
});
const { app, context } = await buildApp(config);
await app.listen({ port: 0, host: '0.0.0.0' });
const port = (app.server.address() as AddressInfo).port;
const [host] = await context.db
  .insert(users)
  .values({
    username: 'Bench Host',
    email: `bench.${randomBytes(4).toString('hex')}@example.com`,
    emailVerifiedAt: new Date(),
  })
  .returning();

/** A live public meeting of its own for each join: guests are admitted at once. */
async function liveMeeting() {
  const slug = `bench-${randomBytes(4).toString('hex')}`;
  await context.db.insert(meetings).values({
    hostId: host!.id,
    name: 'Bench meeting',
    slug,
    isSchedule: 0,
    state: 'live',
    startTime: new Date(),
    endTime: new Date(Date.now() + 3_600_000),
  });
  return slug;
}

async function join(place: Place, turn: 'none' | 'tcp'): Promise<{ ms: number; pair: string | undefined }> {
  const slug = await liveMeeting();
  const hostSide = new CallerProcess({ baseUrl: `http://127.0.0.1:${port}`, slug, name: 'Host', turn: 'none' });
  let guest: CallerProcess | undefined;
  try {
    await hostSide.until((r) => r.event === 'publishing', 30_000, 'host publishes');
    // Timed by the guest from its join request: its process start-up is no part of the figure.
    guest = new CallerProcess(
      { baseUrl: `http://${place.serverAddress}:${port}`, slug, name: 'Guest', turn },
      place.namespace,
    );
    const seen = await guest.until((r) => r.firstVideoMs !== undefined, 45_000, 'guest sees the host');
    await guest.until((r) => r.subscriber !== undefined, 5000, 'guest reports its pair');
    return { ms: seen.firstVideoMs!, pair: guest.latest?.subscriber };
  } finally {
    await Promise.all([hostSide.stop(), guest?.stop()]);
  }
}

const figures: Record<'udp' | 'tcpTurn', number[]> = { udp: [], tcpTurn: [] };
try {
  // One of each first, not counted: Janus and coturn start on the first joins.
  await join(places.open, 'none');
  await join(places.udpBlocked, 'tcp');
  for (let round = 0; round < JOINS; round += 1) {
    const udp = await join(places.open, 'none');
    const relayed = await join(places.udpBlocked, 'tcp');
    if (relayed.pair !== 'relay') throw new Error(`the UDP-blocked guest used ${relayed.pair}, not the relay`);
    figures.udp.push(udp.ms);
    figures.tcpTurn.push(relayed.ms);
    console.log(
      `join ${round + 1}: over UDP ${udp.ms} ms (${udp.pair}), UDP blocked ${relayed.ms} ms (relay over TCP)`,
    );
  }
} finally {
  await app.close();
  lab.close();
  rmSync(dataDir, { recursive: true, force: true });
}
const median = (values: number[]) => percentile(values, 50);
const ratio = median(figures.tcpTurn) / median(figures.udp);
console.log(
  `join to first video, median of ${JOINS}: over UDP ${median(figures.udp)} ms (p95 ${percentile(figures.udp, 95)}), ` +
    `UDP blocked through TURN over TCP ${median(figures.tcpTurn)} ms (p95 ${percentile(figures.tcpTurn, 95)}); ` +
    `ratio ${ratio.toFixed(2)}× (budget ≤ 1.5×)`,
);
process.exit(0);
