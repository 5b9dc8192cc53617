import { peopleCalls } from '@meetcast/contracts';
import { ShieldIcon, TvIcon } from 'lucide-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { Avatar } from '../../components/avatar';
import { Button } from '../../components/button';
import { Panel } from '../../components/form-controls';
import { ImageUpload } from '../../components/image-upload';
import { PageHeader } from '../../components/page-header';
import { PageSpinner } from '../../components/spinner';
import { ChannelMessage } from './channel-message';
import { BrandKitPanel } from './brand-kit-panel';
import { useCurrentUser } from '../session';
import { ApiError, api } from '../../lib/api';
import { imageUrl } from '../../lib/image-url';
import { ChannelForm, type ChannelFormValues } from './channel-form';
import { CHANNELS_KEY, useRefreshChannels } from './use-channels';

/** The edit page: the channel's owner or an administrator; anyone else gets a 403 page. */
export default function EditChannelPage() {
  const { t } = useTranslation('channels');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const refresh = useRefreshChannels();
  const channel = useQuery({
    queryKey: [...CHANNELS_KEY, 'edit', id],
    queryFn: async ({ signal }) => (await api.call(peopleCalls.getEditChannel, { id }, { signal })).data,
    retry: false,
  });
  const save = useMutation({
    mutationFn: (values: ChannelFormValues) => api.call(peopleCalls.updateChannel, { ...values, id }),
    onSuccess: async (body) => {
      toast.success(body.message);
      await refresh();
      void navigate(body.data.can_edit ? `/channels/${body.data.slug}` : '/channels');
    },
  });
  const uploadImage = (kind: 'avatar' | 'cover') => (file: File) =>
    api.call(peopleCalls.uploadChannelImage, { id, kind, file });

  if (channel.isPending) return <PageSpinner label={t('loading')} />;
  if (channel.isError) {
    const status = channel.error instanceof ApiError ? channel.error.httpStatus : 0;
    return (
      <ChannelMessage
        icon={status === 403 ? ShieldIcon : TvIcon}
        title={status === 403 ? t('edit.forbidden_title') : t('edit.missing_title')}
        text={channel.error.message}
        action={
          <Link to="/channels" className="font-semibold text-primary-700 underline dark:text-primary-300">
            {t('edit.back')}
          </Link>
        }
      />
    );
  }
  const data = channel.data;
  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        title={t('edit.title', { name: data.name })}
        actions={
          <Button variant="secondary" onClick={() => void navigate(`/channels/${data.slug}`)}>
            {t('actions.view')}
          </Button>
        }
      />
      <Panel title={t('edit.pictures')} description={t('edit.pictures_hint')}>
        <div className="space-y-6">
          <ImageUpload
            label={t('edit.upload_avatar')}
            hint={t('edit.image_rules')}
            tooLarge={t('edit.too_large')}
            preview={<Avatar name={data.name} path={data.avatar} className="size-16 text-xl" />}
            upload={uploadImage('avatar')}
            onUploaded={() => void refresh()}
          />
          <ImageUpload
            label={t('edit.upload_cover')}
            hint={t('edit.image_rules')}
            tooLarge={t('edit.too_large')}
            preview={
              <div className="h-16 w-40 overflow-hidden rounded-lg bg-gradient-to-r from-primary-600 to-fuchsia-600">
                {data.cover && (
                  <img src={imageUrl(data.cover)} alt={t('edit.cover_alt')} className="size-full object-cover" />
                )}
              </div>
            }
            upload={uploadImage('cover')}
            onUploaded={() => void refresh()}
          />
        </div>
      </Panel>
      {/* The brand kit is its owner's: an administrator editing another's channel does not see it. */}
      {user?.id === data.owner.id && <BrandKitPanel />}
      <Panel title={t('edit.details')}>
        <ChannelForm
          channel={data}
          submitLabel={t('edit.submit')}
          isSaving={save.isPending}
          onSubmit={(values) => save.mutate(values)}
        />
      </Panel>
    </section>
  );
}
