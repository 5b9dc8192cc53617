import { peopleCalls, type Profile } from '@meetcast/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useSession } from '../session';

export const PROFILE_KEY = ['profile'] as const;

export function useProfile() {
  return useQuery({
    queryKey: PROFILE_KEY,
    queryFn: async ({ signal }) => (await api.call(peopleCalls.getProfile, {}, { signal })).data.data,
  });
}

/** After a change: the profile query and the signed-in user (top bar, menus) show the new values. */
export function useApplyProfile() {
  const queryClient = useQueryClient();
  const { updateUser } = useSession();
  return (profile: Profile) => {
    queryClient.setQueryData(PROFILE_KEY, profile);
    updateUser(profile);
  };
}
