import { peopleCalls, type Profile } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Avatar } from '../../components/avatar';
import { Button } from '../../components/button';
import { Panel } from '../../components/form-controls';
import { ImageUpload } from '../../components/image-upload';
import { api } from '../../lib/api';
import { useApplyProfile } from './use-profile';

export function AvatarSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const apply = useApplyProfile();
  const remove = useMutation({
    mutationFn: () => api.call(peopleCalls.removeAvatar, {}),
    onSuccess: (body) => {
      toast.success(body.message);
      apply(body.data.data);
    },
  });
  return (
    <Panel title={t('avatar.title')} description={t('avatar.subtitle')}>
      <ImageUpload
        label={t('avatar.upload')}
        hint={t('avatar.rules')}
        tooLarge={t('avatar.too_large')}
        preview={<Avatar name={profile.username} path={profile.avatar} className="size-20 text-2xl" />}
        upload={async (file) => {
          const body = await api.call(peopleCalls.uploadAvatar, { file });
          apply(body.data.data);
          return body;
        }}
        extra={
          profile.avatar ? (
            <Button variant="ghost" isLoading={remove.isPending} onClick={() => remove.mutate()}>
              {t('avatar.remove')}
            </Button>
          ) : undefined
        }
      />
    </Panel>
  );
}
