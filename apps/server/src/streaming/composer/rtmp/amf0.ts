/** The AMF0 values RTMP commands carry (connect, publish, onStatus, onMetaData). */
export type Amf0Value = number | boolean | string | null | undefined | Amf0Object | Amf0Value[];
export interface Amf0Object {
  [key: string]: Amf0Value;
}

const NUMBER = 0x00;
const BOOLEAN = 0x01;
const STRING = 0x02;
const OBJECT = 0x03;
const NULL = 0x05;
const UNDEFINED = 0x06;
const ECMA_ARRAY = 0x08;
const OBJECT_END = 0x09;
const STRICT_ARRAY = 0x0a;
const DATE = 0x0b;
const LONG_STRING = 0x0c;

export function encodeAmf0(...values: Amf0Value[]): Buffer {
  return Buffer.concat(values.map(encodeValue));
}

function encodeValue(value: Amf0Value): Buffer {
  if (value === null) return Buffer.from([NULL]);
  if (value === undefined) return Buffer.from([UNDEFINED]);
  if (typeof value === 'number') {
    const buffer = Buffer.alloc(9);
    buffer[0] = NUMBER;
    buffer.writeDoubleBE(value, 1);
    return buffer;
  }
  if (typeof value === 'boolean') return Buffer.from([BOOLEAN, value ? 1 : 0]);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    if (text.length > 0xffff) {
      const head = Buffer.alloc(5);
      head[0] = LONG_STRING;
      head.writeUInt32BE(text.length, 1);
      return Buffer.concat([head, text]);
    }
    return Buffer.concat([Buffer.from([STRING]), shortString(value)]);
  }
  if (Array.isArray(value)) {
    const head = Buffer.alloc(5);
    head[0] = STRICT_ARRAY;
    head.writeUInt32BE(value.length, 1);
    return Buffer.concat([head, ...value.map(encodeValue)]);
  }
  const entries = Object.entries(value).flatMap(([key, entry]) => [shortString(key), encodeValue(entry)]);
  return Buffer.concat([Buffer.from([OBJECT]), ...entries, Buffer.from([0, 0, OBJECT_END])]);
}

function shortString(text: string) {
  const bytes = Buffer.from(text, 'utf8');
  const head = Buffer.alloc(2);
  head.writeUInt16BE(bytes.length);
  return Buffer.concat([head, bytes]);
}

/** Every value of a command message, in order; stops at the first type it does not know. */
export function decodeAmf0(buffer: Buffer): Amf0Value[] {
  const values: Amf0Value[] = [];
  const reader = { buffer, at: 0 };
  while (reader.at < buffer.length) {
    const value = readValue(reader);
    if (value === UNKNOWN) break;
    values.push(value);
  }
  return values;
}

const UNKNOWN = Symbol('unknown');
interface Reader {
  buffer: Buffer;
  at: number;
}

function readValue(reader: Reader): Amf0Value | typeof UNKNOWN {
  const { buffer } = reader;
  const type = buffer[reader.at++];
  switch (type) {
    case NUMBER:
      reader.at += 8;
      return buffer.readDoubleBE(reader.at - 8);
    case BOOLEAN:
      return buffer[reader.at++] !== 0;
    case STRING:
      return readShortString(reader);
    case LONG_STRING: {
      const length = buffer.readUInt32BE(reader.at);
      reader.at += 4 + length;
      return buffer.toString('utf8', reader.at - length, reader.at);
    }
    case NULL:
      return null;
    case UNDEFINED:
      return undefined;
    case ECMA_ARRAY:
      reader.at += 4;
      return readProperties(reader);
    case OBJECT:
      return readProperties(reader);
    case STRICT_ARRAY: {
      const count = buffer.readUInt32BE(reader.at);
      reader.at += 4;
      const items: Amf0Value[] = [];
      for (let index = 0; index < count; index += 1) {
        const item = readValue(reader);
        if (item === UNKNOWN) return UNKNOWN;
        items.push(item);
      }
      return items;
    }
    case DATE:
      reader.at += 10;
      return buffer.readDoubleBE(reader.at - 10);
    default:
      return UNKNOWN;
  }
}

function readShortString(reader: Reader) {
  const length = reader.buffer.readUInt16BE(reader.at);
  reader.at += 2 + length;
  return reader.buffer.toString('utf8', reader.at - length, reader.at);
}

function readProperties(reader: Reader): Amf0Object | typeof UNKNOWN {
  const object: Amf0Object = {};
  while (reader.at + 3 <= reader.buffer.length) {
    if (reader.buffer.readUInt16BE(reader.at) === 0 && reader.buffer[reader.at + 2] === OBJECT_END) {
      reader.at += 3;
      return object;
    }
    const key = readShortString(reader);
    const value = readValue(reader);
    if (value === UNKNOWN) return UNKNOWN;
    object[key] = value;
  }
  return object;
}
