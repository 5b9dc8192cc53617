/**
 * The external OpenID provider of the end-to-end suite: panva's oidc-provider with its development
 * login and consent pages (the same helper the API tests use), on a fixed loopback port, with the
 * Meetcast e2e server registered as a client. Any login and password sign in; the login becomes
 * the account (`<login>@example.com`, verified, named after the login).
 */
import { startTestProvider } from '@meetcast/testkit/oidc-provider';
import { E2E_OIDC } from './oidc.js';
import { E2E_PORTS } from './ports.js';

const provider = await startTestProvider({
  port: E2E_PORTS.oidc,
  redirectUris: [E2E_OIDC.redirectUri],
  clientId: E2E_OIDC.clientId,
  clientSecret: E2E_OIDC.clientSecret,
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void provider.close().then(() => process.exit(0));
  });
}
