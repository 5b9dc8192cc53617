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
  /** Readers added before the encode's first keyframe: they start with it. */
  private readonly waiting = new Set<(chunk: Buffer) => void>();

  /** Adds a reader: it gets the tables and the group of pictures so far, then every new packet. */
  add(sink: (chunk: Buffer) => void) {
    const head = this.startingPoint();
    if (head.length === 0) {
      this.waiting.add(sink);
    } else {
      sink(head);
      this.sinks.add(sink);
    }
    return () => {
      this.sinks.delete(sink);
      this.waiting.delete(sink);
    };
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
    for (const sink of this.sinks) sink(packets);
    for (let at = 0; at < packets.length; at += PACKET) {
      const isKeyframe = this.remember(packets.subarray(at, at + PACKET));
      if (isKeyframe && this.waiting.size > 0) {
        const start = Buffer.concat([...this.tables.values(), packets.subarray(at)]);
        for (const sink of this.waiting) {
          sink(start);
          this.sinks.add(sink);
        }
        this.waiting.clear();
      }
    }
  }

  /** Keeps tables and the current group of pictures; true when this packet starts a keyframe. */
  private remember(packet: Buffer): boolean {
    const pid = ((packet[1]! & 0x1f) << 8) | packet[2]!;
    const startsUnit = (packet[1]! & 0x40) !== 0;
    if (pid === 0 && startsUnit) {
      this.tables.set(0, Buffer.from(packet));
      return false;
    }
    const pmtPid = this.programMapPid();
    if (pmtPid !== undefined && pid === pmtPid && startsUnit) {
      this.tables.set(pid, Buffer.from(packet));
      return false;
    }
    // Audio packets are marked random-access too: only the video's mark a keyframe.
    if (pid !== this.videoPid()) {
      if (this.gop.length > 0) this.gop.push(Buffer.from(packet));
      return false;
    }
    const hasAdaptation = (packet[3]! & 0x20) !== 0;
    const isRandomAccess = hasAdaptation && packet[4]! > 0 && (packet[5]! & 0x40) !== 0;
    if (isRandomAccess && startsUnit) this.gop = [];
    if (this.gop.length > 0 || isRandomAccess) this.gop.push(Buffer.from(packet));
    // A keyframe every second: anything much larger means there is none, so stop keeping.
    if (this.gop.length > 40_000) this.gop = [];
    return isRandomAccess && startsUnit;
  }

  /** The H.264 stream's pid, from the program map table. */
  private videoPid(): number | undefined {
    const pmtPid = this.programMapPid();
    const pmt = pmtPid === undefined ? undefined : this.tables.get(pmtPid);
    if (!pmt) return undefined;
    const section = 5 + pmt[4]!;
    const sectionEnd = Math.min(pmt.length, section + 3 + (((pmt[section + 1]! & 0x0f) << 8) | pmt[section + 2]!) - 4);
    const programInfoLength = ((pmt[section + 10]! & 0x0f) << 8) | pmt[section + 11]!;
    for (let at = section + 12 + programInfoLength; at + 5 <= sectionEnd;) {
      const streamType = pmt[at]!;
      const pid = ((pmt[at + 1]! & 0x1f) << 8) | pmt[at + 2]!;
      if (streamType === 0x1b) return pid;
      at += 5 + (((pmt[at + 3]! & 0x0f) << 8) | pmt[at + 4]!);
    }
    return undefined;
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
