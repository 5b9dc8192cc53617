const PACKET = 188;
const SYNC = 0x47;

/**
 * The encode's MPEG-TS, cut into whole packets, with the current group of pictures kept aside: a
 * destination (or viewer) that starts late gets it first, so it begins at a keyframe with the
 * stream's parameters instead of probing mid-picture. Packets are never held back for anyone.
 */
export class MediaFanOut {
  private remainder = Buffer.alloc(0);
  private gop: Buffer[] = [];
  private tables = new Map<number, Buffer>();
  private readonly sinks = new Set<(chunk: Buffer) => void>();

  /** Adds a reader: it gets the tables and the group of pictures so far, then every new packet. */
  add(sink: (chunk: Buffer) => void) {
    const head = this.startingPoint();
    if (head.length > 0) sink(head);
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  /** What a reader starting now needs first: PAT, PMT and everything since the last keyframe. */
  startingPoint(): Buffer {
    return this.gop.length === 0 ? Buffer.alloc(0) : Buffer.concat([...this.tables.values(), ...this.gop]);
  }

  write(chunk: Buffer) {
    const data = this.remainder.length > 0 ? Buffer.concat([this.remainder, chunk]) : chunk;
    let offset = 0;
    // Resynchronise on the sync byte if a chunk ever starts mid-packet.
    while (offset < data.length && data[offset] !== SYNC) offset += 1;
    const whole = Math.floor((data.length - offset) / PACKET) * PACKET;
    const packets = data.subarray(offset, offset + whole);
    this.remainder = Buffer.from(data.subarray(offset + whole));
    if (packets.length === 0) return;
    for (let at = 0; at < packets.length; at += PACKET) this.remember(packets.subarray(at, at + PACKET));
    for (const sink of this.sinks) sink(packets);
  }

  private remember(packet: Buffer) {
    const pid = ((packet[1]! & 0x1f) << 8) | packet[2]!;
    const startsUnit = (packet[1]! & 0x40) !== 0;
    if (pid === 0 && startsUnit) {
      this.tables.set(0, Buffer.from(packet));
      return;
    }
    const pmtPid = this.programMapPid();
    if (pmtPid !== undefined && pid === pmtPid && startsUnit) {
      this.tables.set(pid, Buffer.from(packet));
      return;
    }
    const hasAdaptation = (packet[3]! & 0x20) !== 0;
    const isRandomAccess = hasAdaptation && packet[4]! > 0 && (packet[5]! & 0x40) !== 0;
    if (isRandomAccess && startsUnit) this.gop = [];
    if (this.gop.length > 0 || isRandomAccess) this.gop.push(Buffer.from(packet));
    // A keyframe every 2 s: anything much larger means there is none, so stop keeping.
    if (this.gop.length > 40_000) this.gop = [];
  }

  private programMapPid(): number | undefined {
    const pat = this.tables.get(0);
    if (!pat) return undefined;
    // PAT: pointer field, then the table; the first program's PMT pid sits 10 bytes into its section.
    const start = 5 + pat[4]!;
    const entry = start + 8;
    if (entry + 4 > pat.length) return undefined;
    return ((pat[entry + 2]! & 0x1f) << 8) | pat[entry + 3]!;
  }
}
