import { accountCalls, type Notification } from '@meetcast/contracts';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const NOTIFICATIONS_KEY = ['notifications'] as const;

/** Newest first, no duplicates: the list as the server orders it. */
function ordered(list: Notification[]): Notification[] {
  const byId = new Map(list.map((item) => [item.id, item]));
  return [...byId.values()].sort((a, b) => b.created_at - a.created_at || b.id - a.id);
}

/** A notification pushed live over Socket.IO joins the list without a refetch. */
export function addNotification(queryClient: QueryClient, notification: Notification) {
  queryClient.setQueryData<Notification[]>(NOTIFICATIONS_KEY, (list) => ordered([notification, ...(list ?? [])]));
}

/** get-user-notification.php; a failure is ignored silently: the badge is not worth an error toast on every page. */
export function useNotifications() {
  return useQuery({
    queryKey: NOTIFICATIONS_KEY,
    queryFn: async ({ signal }) =>
      ordered((await api.call(accountCalls.getUserNotification, {}, { signal })).data.data),
    meta: { silent: true },
    retry: false,
  });
}

/** clear-user-notification.php: on success the list is replaced by the remaining one the server sends. */
export function useClearNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(accountCalls.clearUserNotification, { id }),
    onSuccess: (body) => queryClient.setQueryData(NOTIFICATIONS_KEY, ordered(body.data.data)),
  });
}
