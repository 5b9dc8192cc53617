import type { SessionBody } from '@meetcast/contracts';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { returnPathOf } from '../../lib/sign-in-return';
import { useSession } from '../session';

/**
 * After login or confirmation: keep the token in the cookie, the user in memory, and go home, or back
 * to the page that sent the visitor to sign in (`?next=`).
 */
export function useSignInSuccess() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  return (body: SessionBody) => {
    signIn(body.data.token, body.data.data);
    toast.success(body.message);
    void navigate(returnPathOf(searchParams.get('next')), { replace: true });
  };
}
