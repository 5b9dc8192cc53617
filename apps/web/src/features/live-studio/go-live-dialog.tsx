import { RadioIcon } from 'lucide-react';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { Dialog, DialogClose } from '../../components/dialog';
import { LiveStudio } from './live-studio';

/**
 * My Channel's "Go live" on a scheduled broadcast (a meeting of the channel): the same studio as the
 * room's Live panel, in a dialog, started for that meeting's address. Closing the dialog does not
 * stop the broadcast; opening it again shows how it runs.
 */
export function GoLiveAction(props: { meetId: string; meetingTitle: string; isLive?: boolean }) {
  return (
    <Suspense fallback={null}>
      <GoLiveActionInner {...props} />
    </Suspense>
  );
}

function GoLiveActionInner({
  meetId,
  meetingTitle,
  isLive = false,
}: {
  meetId: string;
  meetingTitle: string;
  isLive?: boolean;
}) {
  const { t } = useTranslation('streaming');
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant={isLive ? 'secondary' : 'danger'}
        aria-label={t(isLive ? 'channel.manage_name' : 'channel.go_live_name', { title: meetingTitle })}
        onClick={() => setIsOpen(true)}
      >
        <RadioIcon className="size-4" />
        {isLive ? t('channel.manage') : t('go_live.submit')}
      </Button>
      <Dialog
        open={isOpen}
        onOpenChange={setIsOpen}
        title={t('channel.dialog_title', { title: meetingTitle })}
        description={t('channel.dialog_text')}
        footer={<DialogClose>{t('actions.close')}</DialogClose>}
      >
        <LiveStudio meetId={meetId} meetingTitle={meetingTitle} canStart />
      </Dialog>
    </>
  );
}
