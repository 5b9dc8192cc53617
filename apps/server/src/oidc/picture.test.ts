import { describe, expect, it } from 'vitest';
import { fetchPicture } from './picture.js';

describe('fetchPicture', () => {
  it('refuses other schemes and private hosts before connecting', async () => {
    const issuer = 'https://id.example.com';
    await expect(fetchPicture('file:///etc/passwd', issuer)).rejects.toThrow('not http(s)');
    await expect(fetchPicture('http://127.0.0.1:1/a.png', issuer)).rejects.toThrow('private address');
    await expect(fetchPicture('http://[::1]:1/a.png', issuer)).rejects.toThrow('private address');
    await expect(fetchPicture('http://user:pw@example.com/a.png', issuer)).rejects.toThrow('credentials');
    await expect(fetchPicture('http://localhost:1/a.png', issuer)).rejects.toThrow(/private address/);
    // The spellings the address policy reads (platform/address-policy.test.ts has them all).
    for (const host of ['0x7f.1', '2130706433', '169.254.169.254', '[::ffff:127.0.0.1]', '[fd00:ec2::254]', '[::]']) {
      await expect(fetchPicture(`http://${host}:1/a.png`, issuer), host).rejects.toThrow('private address');
    }
  });
});
