import { EmailSchema, EXTERNAL_LOGIN_CALLBACK_PATH } from '@meetcast/contracts';
import type { FastifyBaseLogger } from 'fastify';
import * as client from 'openid-client';
import type { AppConfig } from '../env.js';
import { AppError } from '../http/app-error.js';

export type OidcSettings = NonNullable<AppConfig['oidc']>;

/** The claims Meetcast uses, merged from the ID token and, when the provider has one, UserInfo. */
export interface ExternalProfile {
  issuer: string;
  subject: string;
  email: string | undefined;
  /** `true` or `false` when the provider says so; `undefined` when it does not say. */
  emailVerified: boolean | undefined;
  names: string[];
  picture: string | undefined;
}

export interface PendingAuthorization {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface AuthorizationResponse {
  code: string | undefined;
  state: string | undefined;
  iss: string | undefined;
  error: string | undefined;
}

const DISCOVERY_TIMEOUT_SECONDS = 10;
const SCOPE = 'openid email profile';

const stringClaim = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** The address the provider gives, lower-cased; one that is not a valid address counts as none. */
function emailClaim(value: unknown): string | undefined {
  const parsed = EmailSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function booleanClaim(value: unknown): boolean | undefined {
  // Some providers send the flag as the text "true"/"false".
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

/**
 * The relying party: discovers the issuer once (again after a failure), builds authorization
 * addresses with PKCE, `state` and `nonce`, and exchanges codes. openid-client checks the ID
 * token's issuer, audience, expiry, `nonce` and `azp`; non-repudiation checks add its signature
 * against the provider's published keys.
 */
export class OidcProviderClient {
  readonly redirectUri: string;
  private configuration: Promise<client.Configuration> | undefined;

  constructor(
    readonly settings: OidcSettings,
    publicUrl: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.redirectUri = `${publicUrl}${EXTERNAL_LOGIN_CALLBACK_PATH}`;
  }

  get displayName() {
    return this.settings.displayName;
  }

  /** The provider's authorization address for a new pending sign-in. */
  async authorizationUrl(pending: PendingAuthorization, language: string): Promise<string> {
    const configuration = await this.discover();
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: SCOPE,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
      ui_locales: language,
    });
    return url.href;
  }

  /** Exchanges the code and returns the verified identity; failures become clear AppErrors. */
  async exchange(response: AuthorizationResponse, pending: PendingAuthorization): Promise<ExternalProfile> {
    const configuration = await this.discover();
    const params = { provider: this.displayName };
    const currentUrl = new URL(this.redirectUri);
    for (const [key, value] of Object.entries(response)) if (value) currentUrl.searchParams.set(key, value);
    try {
      const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new AppError(401, 'oidc.token_invalid', params);
      const userInfo = await this.userInfo(configuration, tokens.access_token, idClaims.sub);
      const claim = (name: string) => idClaims[name] ?? userInfo[name];
      return {
        issuer: idClaims.iss,
        subject: idClaims.sub,
        email: emailClaim(claim('email')),
        emailVerified: booleanClaim(claim('email_verified')),
        names: [
          stringClaim(claim('name')),
          stringClaim(claim('preferred_username')),
          [stringClaim(claim('given_name')), stringClaim(claim('family_name'))].filter(Boolean).join(' '),
          stringClaim(claim('nickname')),
        ].filter((name): name is string => Boolean(name)),
        picture: stringClaim(claim('picture')),
      };
    } catch (error) {
      throw this.explain(error);
    }
  }

  private async userInfo(configuration: client.Configuration, accessToken: string, subject: string) {
    if (!configuration.serverMetadata().userinfo_endpoint || !accessToken) return {};
    try {
      // openid-client refuses an answer whose `sub` differs from the ID token's.
      return (await client.fetchUserInfo(configuration, accessToken, subject)) as Record<string, unknown>;
    } catch (error) {
      this.log.warn({ err: error }, 'external sign-in: UserInfo failed, using the ID token claims only');
      return {};
    }
  }

  private explain(error: unknown): unknown {
    if (error instanceof AppError) return error;
    const params = { provider: this.displayName };
    if (error instanceof client.AuthorizationResponseError) {
      return new AppError(400, 'oidc.cancelled', params);
    }
    if (error instanceof client.ResponseBodyError) {
      if (error.error === 'invalid_grant') return new AppError(400, 'oidc.code_rejected', params);
      this.log.error({ error: error.error, status: error.status }, 'external sign-in: the provider refused the client');
      return new AppError(502, 'oidc.provider_failed', params);
    }
    if (error instanceof client.WWWAuthenticateChallengeError) {
      this.log.error({ status: error.status }, 'external sign-in: the provider refused the client credentials');
      return new AppError(502, 'oidc.provider_failed', params);
    }
    if (isUnreachable(error)) {
      this.log.warn({ err: error }, 'external sign-in: provider unreachable');
      return new AppError(503, 'oidc.provider_unreachable', params);
    }
    if (error instanceof client.ClientError) {
      if (error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || error.code === 'OAUTH_RESPONSE_IS_NOT_JSON') {
        this.log.error({ code: error.code }, 'external sign-in: unexpected answer from the provider');
        return new AppError(502, 'oidc.provider_failed', params);
      }
      // Signature, issuer, audience, expiry, nonce or response checks failed.
      this.log.warn({ code: error.code, reason: error.message }, 'external sign-in: ID token or response refused');
      return new AppError(401, 'oidc.token_invalid', params);
    }
    return error;
  }

  private discover(): Promise<client.Configuration> {
    this.configuration ??= this.runDiscovery().catch((error: unknown) => {
      this.configuration = undefined;
      this.log.warn({ err: error }, 'external sign-in: discovery failed');
      throw isUnreachable(error) || error instanceof client.ClientError
        ? new AppError(503, 'oidc.provider_unreachable', { provider: this.displayName })
        : error;
    });
    return this.configuration;
  }

  private async runDiscovery(): Promise<client.Configuration> {
    const issuer = new URL(this.settings.issuer);
    // Plain HTTP only when the administrator configured an http:// issuer (a local provider).
    const execute = [client.enableNonRepudiationChecks];
    if (issuer.protocol === 'http:') execute.push(client.allowInsecureRequests);
    const discovered = await client.discovery(
      issuer,
      this.settings.clientId,
      this.settings.clientSecret,
      client.ClientSecretBasic(this.settings.clientSecret),
      { execute, timeout: DISCOVERY_TIMEOUT_SECONDS },
    );
    const methods = discovered.serverMetadata().token_endpoint_auth_methods_supported;
    // client_secret_basic is the OpenID default; a provider that only takes the secret in the body gets that.
    if (methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')) {
      const configuration = new client.Configuration(
        discovered.serverMetadata(),
        this.settings.clientId,
        this.settings.clientSecret,
        client.ClientSecretPost(this.settings.clientSecret),
      );
      for (const step of execute) step(configuration);
      configuration.timeout = DISCOVERY_TIMEOUT_SECONDS;
      return configuration;
    }
    return discovered;
  }
}

function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return true;
  return error instanceof TypeError && /fetch failed/i.test(error.message);
}
