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

  it('refuses invalid values with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(/OIDC/);
  });
});
