import { describe, expect, it } from 'vitest';
import { loadConfig } from './env.js';

describe('loadConfig', () => {
  it('applies the contract defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.mailFrom).toBe('Meetcast <no-reply@localhost>');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.janusUrls).toEqual([]);
    expect(config.oidc).toBeUndefined();
  });

  it('splits JANUS_URL and reads the OIDC settings together', () => {
    const config = loadConfig({
      JANUS_URL: 'ws://a:8188, ws://b:8188',
      OIDC_ISSUER: 'https://id.example.com',
      OIDC_CLIENT_ID: 'meetcast',
      OIDC_CLIENT_SECRET: 's3cret',
    });
    expect(config.janusUrls).toEqual(['ws://a:8188', 'ws://b:8188']);
    expect(config.oidc).toMatchObject({ issuer: 'https://id.example.com', displayName: 'SSO' });
  });

  it('trusts forwarded addresses only from the configured proxies', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses invalid values with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(/OIDC/);
  });
});
