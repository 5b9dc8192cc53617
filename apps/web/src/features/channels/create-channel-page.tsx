import { peopleCalls } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { PageHeader } from '../../components/page-header';
import { PageSpinner } from '../../components/spinner';
import { api } from '../../lib/api';
import { ChannelForm, type ChannelFormValues } from './channel-form';
import { useMyChannel, useRefreshChannels } from './use-channels';

export default function CreateChannelPage() {
  const { t } = useTranslation('channels');
  const navigate = useNavigate();
  const refresh = useRefreshChannels();
  const mine = useMyChannel();
  const create = useMutation({
    mutationFn: (values: ChannelFormValues) => api.call(peopleCalls.createChannel, { ...values }),
    onSuccess: async (body) => {
      toast.success(body.message);
      await refresh();
      void navigate('/my-channel');
    },
  });
  if (mine.isPending) return <PageSpinner label={t('loading')} />;
  // One channel per account: someone who has one edits it instead.
  if (mine.data && !create.isSuccess) return <Navigate to="/my-channel" replace />;
  return (
    <section className="mx-auto max-w-3xl">
      <PageHeader title={t('create.title')} description={t('create.subtitle')} />
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <ChannelForm submitLabel={t('create.submit')} isSaving={create.isPending} onSubmit={(v) => create.mutate(v)} />
      </div>
    </section>
  );
}
