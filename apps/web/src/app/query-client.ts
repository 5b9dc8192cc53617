import { MutationCache, QueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { dismissFormError, showFormError } from '../lib/form-toast';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { silent?: boolean };
    queryMeta: { silent?: boolean };
  }
}

/**
 * Spec section 8: a thrown error shows its message in an error toast (mutations can opt out). A
 * mutation with a key is a form: its error toast is replaced by its next error and dismissed when it
 * later succeeds.
 */
export function createQueryClient() {
  return new QueryClient({
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.silent) return;
        const form = mutation.options.mutationKey?.join(':');
        if (form) showFormError(form, error.message);
        else toast.error(error.message);
      },
      onSuccess: (_data, _variables, _context, mutation) => {
        const form = mutation.options.mutationKey?.join(':');
        if (form) dismissFormError(form);
      },
    }),
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: 0 },
    },
  });
}
