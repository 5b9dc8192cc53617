import type { SessionBody } from '@meetcast/contracts';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useSession } from '../session';

/** After login or confirmation: keep the token in the cookie, the user in memory, and go home. */
export function useSignInSuccess() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  return (body: SessionBody) => {
    signIn(body.data.token, body.data.data);
    toast.success(body.message);
    void navigate('/', { replace: true });
  };
}
