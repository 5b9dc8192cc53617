import { describe, expect, it } from 'vitest';
import { fetchPicture, isPrivateAddress } from './picture.js';

describe('isPrivateAddress', () => {
  it('refuses loopback, private, link-local and mapped addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      'not an address',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
  });

  it('allows public addresses', () => {
    for (const address of ['8.8.8.8', '142.250.74.14', '2a00:1450:4001:80e::200e']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

describe('fetchPicture', () => {
  it('refuses other schemes and private hosts before connecting', async () => {
    const issuer = 'https://id.example.com';
    await expect(fetchPicture('file:///etc/passwd', issuer)).rejects.toThrow('not http(s)');
    await expect(fetchPicture('http://127.0.0.1:1/a.png', issuer)).rejects.toThrow('private address');
    await expect(fetchPicture('http://[::1]:1/a.png', issuer)).rejects.toThrow('private address');
    await expect(fetchPicture('http://user:pw@example.com/a.png', issuer)).rejects.toThrow('credentials');
    await expect(fetchPicture('http://localhost:1/a.png', issuer)).rejects.toThrow(/private address/);
  });
});
