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

  it('keeps the seat of someone whose connection dropped for at least 2 minutes unless told otherwise, never past the grant', () => {
    expect(loadConfig({}).roomReconnectGraceSeconds).toBeGreaterThanOrEqual(120);
    expect(loadConfig({ ROOM_RECONNECT_GRACE_SECONDS: '3' }).roomReconnectGraceSeconds).toBe(3);
    expect(() => loadConfig({ ROOM_RECONNECT_GRACE_SECONDS: '600' })).toThrow(/ROOM_RECONNECT_GRACE_SECONDS/);
  });

  it('refuses invalid values with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(/OIDC/);
  });

  it('reads the streaming platforms with the public defaults', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://meet.example.com/' });
    expect(config.streaming).toEqual({
      youtube: undefined,
      twitch: undefined,
      googleAuthUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      googleTokenUrl: 'https://oauth2.googleapis.com/token',
      googleRevokeUrl: 'https://oauth2.googleapis.com/revoke',
      youtubeApiUrl: 'https://www.googleapis.com/youtube/v3',
      twitchOAuthUrl: 'https://id.twitch.tv/oauth2',
      twitchApiUrl: 'https://api.twitch.tv/helix',
      twitchIngestUrl: 'https://ingest.twitch.tv/ingests',
      twitchEventSubUrl: 'wss://eventsub.wss.twitch.tv/ws',
      connectStreamUrl: 'https://meet.example.com/connect-stream',
      secretsKey: undefined,
      allowPrivate: { networks: [], hostNames: [] },
    });
  });

  it('reads the private addresses streams may go to, and stops on one that is none', () => {
    const { allowPrivate } = loadConfig({ RTMP_ALLOW_PRIVATE: '127.0.0.1, 10.0.0.0/8, rtmp.lan' }).streaming;
    expect(allowPrivate.hostNames).toEqual(['rtmp.lan']);
    expect(allowPrivate.networks).toHaveLength(2);
    expect(() => loadConfig({ RTMP_ALLOW_PRIVATE: '127.0.0.1,10.0.0.0/40' })).toThrow(
      /RTMP_ALLOW_PRIVATE: "10.0.0.0\/40"/,
    );
    expect(() => loadConfig({ RTMP_ALLOW_PRIVATE: 'rtmp://nginx.lan' })).toThrow(/RTMP_ALLOW_PRIVATE/);
  });

  it('takes the platform clients and addresses from the environment', () => {
    const config = loadConfig({
      YOUTUBE_CLIENT_ID: 'yt-id',
      YOUTUBE_CLIENT_SECRET: 'yt-secret',
      TWITCH_CLIENT_ID: 'tw-id',
      TWITCH_CLIENT_SECRET: 'tw-secret',
      YOUTUBE_API_URL: 'http://127.0.0.1:9000/youtube/v3/',
      CONNECT_STREAM_URL: 'http://127.0.0.1:5173/connect-stream',
      SECRETS_KEY: 'ab'.repeat(32),
    });
    expect(config.streaming.youtube).toEqual({ clientId: 'yt-id', clientSecret: 'yt-secret' });
    expect(config.streaming.twitch).toEqual({ clientId: 'tw-id', clientSecret: 'tw-secret' });
    expect(config.streaming.youtubeApiUrl).toBe('http://127.0.0.1:9000/youtube/v3');
    expect(config.streaming.connectStreamUrl).toBe('http://127.0.0.1:5173/connect-stream');
    expect(config.streaming.secretsKey).toBe('ab'.repeat(32));
  });

  it('refuses a half-set platform client and a key that is not 32 bytes', () => {
    expect(() => loadConfig({ YOUTUBE_CLIENT_ID: 'yt-id' })).toThrow(/YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET/);
    expect(() => loadConfig({ TWITCH_CLIENT_SECRET: 'tw-secret' })).toThrow(
      /TWITCH_CLIENT_ID and TWITCH_CLIENT_SECRET/,
    );
    expect(() => loadConfig({ SECRETS_KEY: 'too-short' })).toThrow(/SECRETS_KEY/);
    expect(() => loadConfig({ SECRETS_KEY: 'ab'.repeat(31) })).toThrow(/SECRETS_KEY/);
    expect(() => loadConfig({ TWITCH_API_URL: 'not a url' })).toThrow(/TWITCH_API_URL/);
  });
});
