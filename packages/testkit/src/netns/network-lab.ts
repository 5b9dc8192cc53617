import { execFileSync } from 'node:child_process';

/**
 * Networks made by a test (ADR 035): network namespaces joined to this machine by veth pairs, with
 * iptables rules inside them, so that a participant can sit behind a firewall that drops UDP or
 * behind a symmetric NAT on one machine. Everything made is listed and removed by `close()`, which a
 * test calls in `afterAll` (it also runs when a test failed). Needs root (`ip netns`).
 */
export const canMakeNetworks = process.getuid?.() === 0;

const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: 'pipe' }).toString();
const quiet = (command: string, args: string[]) => {
  try {
    run(command, args);
  } catch {
    // Already gone.
  }
};

export interface Place {
  /** The namespace a participant runs in (`ip netns exec <name> …`). */
  namespace: string;
  /** This machine's address as seen from there: where the server and its coturn are reached. */
  serverAddress: string;
  /** The namespace's next hop, whose route goes with its link when that is cut. */
  gateway: string;
}

let labs = 0;

export class NetworkLab {
  private readonly namespaces: string[] = [];
  private readonly hostLinks: string[] = [];
  private subnets = 0;
  /** A /16 of its own per lab and process, so that parallel runs never share addresses or names. */
  private readonly base = 100 + ((process.pid * 7 + labs++) % 150);
  private readonly tag = `${(process.pid % 10_000).toString(36)}${labs.toString(36)}`;

  private link(): { host: string; inner: string; hostAddress: string; innerAddress: string } {
    const index = this.subnets++;
    const host = `mh${this.tag}${index}`;
    const inner = `mi${this.tag}${index}`;
    return {
      host,
      inner,
      hostAddress: `10.${this.base}.${index}.1`,
      innerAddress: `10.${this.base}.${index}.2`,
    };
  }

  private namespace(role: string): string {
    const name = `meetcast-${role}-${this.tag}`;
    quiet('ip', ['netns', 'del', name]);
    run('ip', ['netns', 'add', name]);
    this.namespaces.push(name);
    this.exec(name, 'ip', ['link', 'set', 'lo', 'up']);
    return name;
  }

  private exec(namespace: string, command: string, args: string[]) {
    return run('ip', ['netns', 'exec', namespace, command, ...args]);
  }

  /** A veth pair between this machine and `namespace`, the namespace's default route through it. */
  private connectToHost(namespace: string) {
    const link = this.link();
    run('ip', ['link', 'add', link.host, 'type', 'veth', 'peer', 'name', link.inner]);
    this.hostLinks.push(link.host);
    run('ip', ['link', 'set', link.inner, 'netns', namespace]);
    run('ip', ['addr', 'add', `${link.hostAddress}/24`, 'dev', link.host]);
    run('ip', ['link', 'set', link.host, 'up']);
    this.exec(namespace, 'ip', ['addr', 'add', `${link.innerAddress}/24`, 'dev', link.inner]);
    this.exec(namespace, 'ip', ['link', 'set', link.inner, 'up']);
    this.exec(namespace, 'ip', ['route', 'add', 'default', 'via', link.hostAddress]);
    return link;
  }

  /** A participant on an open network of its own (UDP and all), the baseline of the benches. */
  open(): Place {
    const namespace = this.namespace('open');
    const link = this.connectToHost(namespace);
    return { namespace, serverAddress: link.hostAddress, gateway: link.hostAddress };
  }

  /**
   * A participant whose network drops every UDP packet in and out (a corporate firewall); one that
   * also refuses TCP to `refusedTcpPorts` (a firewall that lets only TLS out, TURN's plain port refused),
   * or to every port but `onlyTcpPorts` (a firewall that lets out the web server and TURN over TLS only).
   */
  udpBlocked(options: { refusedTcpPorts?: number[]; onlyTcpPorts?: number[] } = {}): Place {
    const isTlsOnly = Boolean(options.refusedTcpPorts ?? options.onlyTcpPorts);
    const namespace = this.namespace(isTlsOnly ? 'tlsonly' : 'noudp');
    const link = this.connectToHost(namespace);
    for (const [chain, side] of [
      ['OUTPUT', '-o'],
      ['INPUT', '-i'],
    ] as const) {
      this.exec(namespace, 'iptables', ['-A', chain, '-p', 'udp', '!', side, 'lo', '-j', 'DROP']);
    }
    for (const port of options.refusedTcpPorts ?? []) {
      this.exec(namespace, 'iptables', [
        ...['-A', 'OUTPUT', '-p', 'tcp', '--dport', String(port), '!', '-o', 'lo'],
        ...['-j', 'REJECT', '--reject-with', 'tcp-reset'],
      ]);
    }
    if (options.onlyTcpPorts) {
      this.exec(namespace, 'iptables', [
        ...['-A', 'OUTPUT', '-p', 'tcp', '-m', 'multiport', '!', '--dports', options.onlyTcpPorts.join(',')],
        ...['!', '-o', 'lo', '-j', 'REJECT', '--reject-with', 'tcp-reset'],
      ]);
    }
    return { namespace, serverAddress: link.hostAddress, gateway: link.hostAddress };
  }

  /**
   * A participant behind a symmetric NAT: a router namespace masquerades its traffic with a random
   * source port for every new destination (`--random-fully`), so no address learnt from one peer
   * works for another.
   */
  symmetricNat(): Place {
    const router = this.namespace('nat');
    const uplink = this.connectToHost(router);
    const inside = this.namespace('natted');
    const lan = this.link();
    run('ip', ['link', 'add', lan.host, 'type', 'veth', 'peer', 'name', lan.inner]);
    run('ip', ['link', 'set', lan.host, 'netns', router]);
    run('ip', ['link', 'set', lan.inner, 'netns', inside]);
    this.exec(router, 'ip', ['addr', 'add', `${lan.hostAddress}/24`, 'dev', lan.host]);
    this.exec(router, 'ip', ['link', 'set', lan.host, 'up']);
    this.exec(inside, 'ip', ['addr', 'add', `${lan.innerAddress}/24`, 'dev', lan.inner]);
    this.exec(inside, 'ip', ['link', 'set', lan.inner, 'up']);
    this.exec(inside, 'ip', ['route', 'add', 'default', 'via', lan.hostAddress]);
    this.exec(router, 'sysctl', ['-qw', 'net.ipv4.ip_forward=1']);
    this.exec(router, 'iptables', [
      ...['-t', 'nat', '-A', 'POSTROUTING', '-o', uplink.inner, '-j', 'MASQUERADE', '--random-fully'],
    ]);
    return { namespace: inside, serverAddress: uplink.hostAddress, gateway: lan.hostAddress };
  }

  /** Cuts a place's link (its veth set down) or brings it back: what a dead Wi-Fi does. */
  setLink(place: Place, up: boolean) {
    const inner = this.exec(place.namespace, 'ip', ['-o', 'link', 'show', 'type', 'veth'])
      .split('\n')
      .map((line) => /^\d+: ([^@:]+)/.exec(line)?.[1])
      .find(Boolean);
    if (!inner) throw new Error(`no link in ${place.namespace}`);
    this.exec(place.namespace, 'ip', ['link', 'set', inner, up ? 'up' : 'down']);
    // The kernel drops a link's routes when it goes down.
    if (up) this.exec(place.namespace, 'ip', ['route', 'replace', 'default', 'via', place.gateway]);
  }

  /** Removes every namespace (with its rules and veth ends) and every host end this lab made. */
  close() {
    for (const name of this.namespaces.reverse()) quiet('ip', ['netns', 'del', name]);
    for (const link of this.hostLinks) quiet('ip', ['link', 'del', link]);
    this.namespaces.length = 0;
    this.hostLinks.length = 0;
  }
}
