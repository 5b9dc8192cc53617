import { peopleCalls, ChannelPageSchema, type ChannelCategory } from '@meetcast/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { api } from '../../lib/api';
import { PAGE_DATA, readPageData } from './page-data';

export const CHANNELS_KEY = ['channels'] as const;

export function useMyChannel() {
  return useQuery({
    queryKey: [...CHANNELS_KEY, 'mine'],
    queryFn: async ({ signal }) => (await api.call(peopleCalls.getMyChannel, {}, { signal })).data.data,
  });
}

export interface ChannelListQuery {
  search: string;
  category: ChannelCategory | '';
  following: boolean;
  page: number;
}

export function useChannelList(query: ChannelListQuery, options: { withToken?: boolean } = {}) {
  return useQuery({
    queryKey: [...CHANNELS_KEY, 'list', query, options.withToken !== false],
    queryFn: async ({ signal }) =>
      (
        await api.call(
          peopleCalls.getChannels,
          {
            search: query.search || undefined,
            category: query.category || undefined,
            following: query.following || undefined,
            page: query.page,
            per_page: 24,
          },
          { signal, withToken: options.withToken !== false },
        )
      ).data,
    placeholderData: keepPreviousData,
  });
}

/** A channel by its slug or a broadcast by its meeting slug; public pages call it without a token. */
export function useChannelPage(slug: string, options: { withToken?: boolean } = {}) {
  return useQuery({
    queryKey: [...CHANNELS_KEY, 'page', slug, options.withToken !== false],
    queryFn: async ({ signal }) =>
      (await api.call(peopleCalls.getChannel, { slug }, { signal, withToken: options.withToken !== false })).data,
    retry: false,
    // Signed out, the page's HTML came with this answer: the page renders without asking first.
    initialData: () =>
      options.withToken === false ? readPageData(PAGE_DATA.channelPage, slug, ChannelPageSchema) : undefined,
    // Scheduled → live → ended shows up without a reload (the player polls its own state faster).
    refetchInterval: 15_000,
  });
}

export function useFollow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, follow }: { id: number; follow: boolean }) =>
      api.call(follow ? peopleCalls.followChannel : peopleCalls.unfollowChannel, { id }),
    onSuccess: (body) => {
      toast.success(body.message);
      void queryClient.invalidateQueries({ queryKey: CHANNELS_KEY });
    },
  });
}

export function useRefreshChannels() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: CHANNELS_KEY });
}
