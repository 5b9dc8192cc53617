import { APP_URL, OIDC_ISSUER } from './ports';

/** The client the e2e server is registered as at the test provider (oidc-provider.ts). */
export const E2E_OIDC = {
  clientId: 'meetcast-e2e',
  clientSecret: 'meetcast-e2e-secret-long-enough',
  displayName: 'Test ID',
  redirectUri: `${APP_URL}/meetcast-names-login`,
};

/** What the e2e Meetcast server gets in its environment to use that provider. */
export const OIDC_SERVER_ENV = {
  OIDC_ISSUER,
  OIDC_CLIENT_ID: E2E_OIDC.clientId,
  OIDC_CLIENT_SECRET: E2E_OIDC.clientSecret,
  OIDC_DISPLAY_NAME: E2E_OIDC.displayName,
};
