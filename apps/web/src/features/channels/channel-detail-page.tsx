import { TvIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageSpinner } from '../../components/spinner';
import { ChannelMessage } from './channel-message';
import { ChannelPageView } from './channel-page-view';
import { useChannelPage } from './use-channels';

/** `/channels/{meetId}`: a channel by its slug, or a broadcast by its meeting slug. */
export default function ChannelDetailPage() {
  const { t } = useTranslation('channels');
  const { meetId = '' } = useParams();
  const page = useChannelPage(meetId);
  if (page.isPending) return <PageSpinner label={t('loading')} />;
  if (page.isError) {
    return (
      <ChannelMessage
        icon={TvIcon}
        title={t('unavailable_title')}
        text={page.error.message}
        action={
          <Link to="/channels" className="font-semibold text-primary-700 underline dark:text-primary-300">
            {t('browse.back')}
          </Link>
        }
      />
    );
  }
  return <ChannelPageView page={page.data} linkBase="/channels" isSignedIn />;
}
