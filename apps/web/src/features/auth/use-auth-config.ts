import { accountCalls, type AuthConfig } from '@meetcast/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const AUTH_CONFIG_QUERY_KEY = ['auth-config'] as const;

/** The public sign-in options: `oidc` is null when no external provider is configured. */
export function useAuthConfig() {
  return useQuery<AuthConfig>({
    queryKey: AUTH_CONFIG_QUERY_KEY,
    queryFn: async ({ signal }) => (await api.call(accountCalls.getAuthConfig, {}, { withToken: false, signal })).data,
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });
}
