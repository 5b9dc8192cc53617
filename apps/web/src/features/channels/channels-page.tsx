import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { ChannelDirectory } from './channel-directory';
import { useMyChannel } from './use-channels';

export default function ChannelsPage() {
  const { t } = useTranslation('channels');
  const navigate = useNavigate();
  const mine = useMyChannel();
  return (
    <section>
      <PageHeader
        title={t('browse.title')}
        description={t('browse.subtitle')}
        actions={
          mine.isSuccess && (
            <Button onClick={() => void navigate(mine.data ? '/my-channel' : '/create-channel')}>
              {mine.data ? t('browse.my_channel') : t('mine.create')}
            </Button>
          )
        }
      />
      <ChannelDirectory linkBase="/channels" isSignedIn />
    </section>
  );
}
