import { peopleCalls, type ContactSort } from '@meetcast/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const CONTACTS_KEY = ['contacts'] as const;

export interface ContactQuery {
  search: string;
  sort: ContactSort;
  order: 'asc' | 'desc';
  favourites: boolean;
  page: number;
  perPage: number;
}

export function useContactList(query: ContactQuery) {
  return useQuery({
    queryKey: [...CONTACTS_KEY, query],
    queryFn: async ({ signal }) =>
      (
        await api.call(
          peopleCalls.getContacts,
          {
            search: query.search || undefined,
            sort: query.sort,
            order: query.order,
            favourites: query.favourites || undefined,
            page: query.page,
            per_page: query.perPage,
          },
          { signal },
        )
      ).data,
    placeholderData: keepPreviousData,
  });
}

/** Every contact list on screen reloads after a change. */
export function useRefreshContacts() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: CONTACTS_KEY });
}
