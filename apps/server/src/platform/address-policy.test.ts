import { describe, expect, it } from 'vitest';
import {
  AddressRefusedError,
  checkSavedAddress,
  classifyAddress,
  connectTargetFor,
  isAllowedAddress,
  literalAddress,
  NO_EXCEPTIONS,
  parseAddressPolicy,
  parseIpv4,
  resolveAllowedTarget,
  withOwnAddresses,
  type Lookup,
} from './address-policy.js';

/** A resolver with fixed answers: what a name "resolves to" is the input of these cases. */
function fixedLookup(answers: Record<string, string[]>): Lookup {
  return async (host) => {
    const addresses = answers[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address }));
  };
}

describe('parseIpv4', () => {
  it('reads every form inet_aton and URL parsing accept', () => {
    expect(parseIpv4('127.0.0.1')).toBe('127.0.0.1');
    expect(parseIpv4('2130706433')).toBe('127.0.0.1');
    expect(parseIpv4('0x7f000001')).toBe('127.0.0.1');
    expect(parseIpv4('0X7F000001')).toBe('127.0.0.1');
    expect(parseIpv4('0177.0.0.1')).toBe('127.0.0.1');
    expect(parseIpv4('0x7f.0.0.1')).toBe('127.0.0.1');
    expect(parseIpv4('127.1')).toBe('127.0.0.1');
    expect(parseIpv4('127.0.1')).toBe('127.0.0.1');
    expect(parseIpv4('127.0.0.1.')).toBe('127.0.0.1');
    expect(parseIpv4('0')).toBe('0.0.0.0');
    expect(parseIpv4('169.254.43518')).toBe('169.254.169.254');
    expect(parseIpv4('2852039166')).toBe('169.254.169.254');
    expect(parseIpv4('4294967295')).toBe('255.255.255.255');
  });

  it('leaves names and out-of-range numbers alone', () => {
    for (const text of [
      'example.com',
      '4294967296',
      '256.0.0.1',
      '1.2.3.4.5',
      '08.0.0.1',
      '1.2.3.0xg',
      '',
      '1..2',
      '127.0.0.1x',
    ]) {
      expect(parseIpv4(text), text).toBeUndefined();
    }
  });
});

describe('literalAddress', () => {
  it('spells addresses the usual way and answers undefined for names', () => {
    expect(literalAddress('[::1]')).toBe('::1');
    expect(literalAddress('[0:0:0:0:0:0:0:1]')).toBe('::1');
    expect(literalAddress('[::ffff:7f00:1]')).toBe('::ffff:7f00:1');
    expect(literalAddress('[::ffff:127.0.0.1]')).toBe('::ffff:7f00:1');
    expect(literalAddress('FE80::1%eth0')).toBe('fe80::1');
    expect(literalAddress('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(literalAddress('0x7f.1')).toBe('127.0.0.1');
    expect(literalAddress('localhost')).toBeUndefined();
    expect(literalAddress('1:2:3:4:5:6:7:8:9')).toBeUndefined();
    expect(literalAddress('1::2::3')).toBeUndefined();
  });
});

describe('classifyAddress', () => {
  const cases: [string, ReturnType<typeof classifyAddress>][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.3.4', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:7f00:1::', 'loopback'],
    ['::127.0.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['not an address', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['2a00:1450:4001:80e::200e', 'public'],
  ];
  it.each(cases)('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('parseAddressPolicy', () => {
  it('reads addresses, networks and names, and lets exactly those through', () => {
    const policy = parseAddressPolicy(' 127.0.0.1 , 10.1.2.3/8,fd00::/8, RTMP.lan. ,::1,');
    expect(policy.hostNames).toEqual(['rtmp.lan']);
    expect(isAllowedAddress('127.0.0.1', policy)).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.1', policy)).toBe(true);
    expect(isAllowedAddress('127.0.0.2', policy)).toBe(false);
    expect(isAllowedAddress('10.200.0.1', policy)).toBe(true);
    expect(isAllowedAddress('11.0.0.1', policy)).toBe(true);
    expect(isAllowedAddress('fd99::1', policy)).toBe(true);
    expect(isAllowedAddress('fe80::1', policy)).toBe(false);
    expect(isAllowedAddress('::1', policy)).toBe(true);
    expect(isAllowedAddress('169.254.169.254', policy)).toBe(false);
  });

  it('refuses this machine’s own public addresses too, unless they are listed', () => {
    const own = withOwnAddresses(NO_EXCEPTIONS, ['127.0.0.1', '198.100.2.7', '2a01::5', 'x']);
    expect(isAllowedAddress('198.100.2.7', own)).toBe(false);
    expect(isAllowedAddress('::ffff:198.100.2.7', own)).toBe(false);
    expect(isAllowedAddress('2a01::5', own)).toBe(false);
    expect(isAllowedAddress('198.100.2.8', own)).toBe(true);
    const listed = withOwnAddresses(parseAddressPolicy('198.100.2.7'), ['198.100.2.7']);
    expect(isAllowedAddress('198.100.2.7', listed)).toBe(true);
  });

  it('allows nothing inside when unset or empty', () => {
    expect(parseAddressPolicy(undefined)).toEqual(NO_EXCEPTIONS);
    expect(parseAddressPolicy(' , ')).toEqual(NO_EXCEPTIONS);
    expect(isAllowedAddress('127.0.0.1', NO_EXCEPTIONS)).toBe(false);
    expect(isAllowedAddress('8.8.8.8', NO_EXCEPTIONS)).toBe(true);
  });

  it('refuses what is neither an address, a network nor a name, naming the entry', () => {
    for (const bad of [
      '10.0.0.0/33',
      '::/129',
      '10.0.0.0/x',
      'rtmp://host',
      'a b',
      '300.1.1.1',
      'host/24',
      '-bad-.lan',
    ]) {
      expect(() => parseAddressPolicy(`127.0.0.1,${bad}`), bad).toThrow(bad);
    }
  });
});

describe('resolveAllowedTarget', () => {
  const lookup = fixedLookup({
    localhost: ['127.0.0.1', '::1'],
    'ingest.example.com': ['198.100.1.9', '2a00:1450::1'],
    'split.example.com': ['8.8.8.8', '127.0.0.1'],
    'metadata.example.com': ['169.254.169.254'],
    'rtmp.lan': ['192.168.1.20'],
  });
  const refusal = (url: string, policy = NO_EXCEPTIONS) =>
    resolveAllowedTarget(new URL(url), policy, lookup).then(
      () => undefined,
      (error: unknown) => error,
    );

  it('refuses every spelling of an address inside', async () => {
    for (const url of [
      'rtmp://127.0.0.1/live',
      'rtmp://[::1]/live',
      'rtmp://0.0.0.0/live',
      'rtmp://[::]/live',
      'rtmp://localhost/live',
      'rtmp://169.254.169.254/live',
      'rtmp://2130706433/live',
      'rtmp://0x7f000001/live',
      'rtmp://0177.0.0.1/live',
      'rtmp://127.1/live',
      'rtmp://[::ffff:127.0.0.1]/live',
      'rtmp://[64:ff9b::7f00:1]/live',
      'rtmp://[fd00:ec2::254]/live',
      'rtmps://2852039166/live',
      'http://0x7f.1/picture.png',
      'rtmp://metadata.example.com/live',
    ]) {
      const error = await refusal(url);
      expect(error, url).toBeInstanceOf(AddressRefusedError);
      expect(error, url).toMatchObject({ reason: 'inside' });
    }
  });

  it('refuses a name when ANY of its addresses is inside', async () => {
    expect(await refusal('rtmp://split.example.com/live')).toMatchObject({ reason: 'inside', address: '127.0.0.1' });
  });

  it('answers the address to connect to, with the scheme’s port when none is given', async () => {
    await expect(
      resolveAllowedTarget(new URL('rtmp://ingest.example.com/app'), NO_EXCEPTIONS, lookup),
    ).resolves.toEqual({
      address: '198.100.1.9',
      port: 1935,
    });
    await expect(resolveAllowedTarget(new URL('rtmps://8.8.8.8/app'), NO_EXCEPTIONS, lookup)).resolves.toEqual({
      address: '8.8.8.8',
      port: 443,
    });
    await expect(resolveAllowedTarget(new URL('rtmp://[2a00::1]:1936/app'), NO_EXCEPTIONS, lookup)).resolves.toEqual({
      address: '2a00::1',
      port: 1936,
    });
  });

  it('lets through listed addresses and names, and refuses a name that does not resolve', async () => {
    const policy = parseAddressPolicy('127.0.0.1,rtmp.lan');
    const connectTarget = connectTargetFor(policy, lookup);
    await expect(connectTarget(new URL('rtmp://127.0.0.1:19350/live'))).resolves.toEqual({
      address: '127.0.0.1',
      port: 19350,
    });
    await expect(connectTarget(new URL('rtmp://rtmp.lan/live'))).resolves.toEqual({
      address: '192.168.1.20',
      port: 1935,
    });
    // localhost also resolves to ::1, which is not listed.
    expect(await refusal('rtmp://localhost/live', policy)).toMatchObject({ reason: 'inside', address: '::1' });
    expect(await refusal('rtmp://127.0.0.2/live', policy)).toMatchObject({ reason: 'inside' });
    expect(await refusal('rtmp://nowhere.invalid/live', policy)).toMatchObject({ reason: 'unresolved' });
  });
});

describe('checkSavedAddress', () => {
  const lookup = fixedLookup({ 'inside.example.com': ['10.0.0.5'], 'outside.example.com': ['8.8.4.4'] });

  it('refuses literals and names inside, saves public names and names that do not resolve yet', async () => {
    await expect(checkSavedAddress(new URL('rtmp://0x7f.1/live'), NO_EXCEPTIONS, lookup)).rejects.toThrow(
      AddressRefusedError,
    );
    await expect(checkSavedAddress(new URL('rtmp://inside.example.com/live'), NO_EXCEPTIONS, lookup)).rejects.toThrow(
      AddressRefusedError,
    );
    await expect(checkSavedAddress(new URL('rtmp://outside.example.com/live'), NO_EXCEPTIONS, lookup)).resolves.toBe(
      undefined,
    );
    await expect(checkSavedAddress(new URL('rtmp://later.example.com/live'), NO_EXCEPTIONS, lookup)).resolves.toBe(
      undefined,
    );
  });

  it('saves without waiting long for a resolver that does not answer', async () => {
    const never: Lookup = () => new Promise(() => undefined);
    const started = Date.now();
    await checkSavedAddress(new URL('rtmp://slow.example.com/live'), NO_EXCEPTIONS, never);
    expect(Date.now() - started).toBeLessThan(4500);
  });
});
