import { MicIcon, MicOffIcon, VideoIcon, VideoOffIcon } from 'lucide-react';
import {
  roomCalls,
  JoinRoomInputSchema,
  JOIN_KEY_HEADER,
  PASSWORD_FLAG,
  type JoinRoomOutput,
  type RoomMeeting,
} from '@meetcast/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { ApiError, api } from '../../lib/api';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useCurrentUser } from '../session';
import { DeviceSettings, MicLevel } from './device-settings';
import { startEarlyMedia } from './media/early-media';
import { answerEarly, dropPreparedJoin, prepareJoin, sendEarlyJoin } from './media/prepared-join';
import type { LocalMedia } from './use-local-media';
import { VideoView } from './video-view';

export type Joined = JoinRoomOutput['data'];

/** A prepared join usually shows the call sooner than this: only a slower one says it is joining. */
const JOINING_SHOWN_AFTER_MS = 150;
/** The call renders after the prepared subscriber's answer to Janus, unless that takes longer than this. */
const EARLY_ANSWER_WAIT_MS = 150;

const SignedInJoinSchema = JoinRoomInputSchema.pick({ display_name: true, password: true });
/** A guest must say a name (the server refuses a guest's join without one). */
const GuestJoinSchema = SignedInJoinSchema.extend({
  display_name: JoinRoomInputSchema.shape.display_name.unwrap().min(1),
});

/** Camera preview, microphone level, device pickers, name and password, then Join. */
export function PreJoin({
  meeting,
  isHost,
  isWaitingForHost,
  onWaitingForHost,
  local,
  initialPassword,
  initialName,
  notice,
  isBackstage = false,
  onJoined,
}: {
  meeting: RoomMeeting;
  isHost: boolean;
  /** An instant meeting that is not running: only its host can start it, everyone else waits. */
  isWaitingForHost: boolean;
  /** The server said to wait after all (the host was away when this page looked): look again. */
  onWaitingForHost: () => void;
  local: LocalMedia;
  initialPassword: string | undefined;
  /** The name this tab joined with before (kept for the tab). */
  initialName?: string;
  /** Why the call was left for this screen (a kept grant that expired). */
  notice?: string;
  /** Opened from the studio's backstage link: joins off the broadcast (ADR 045). */
  isBackstage?: boolean;
  onJoined: (joined: Joined) => void;
}) {
  const { t } = useTranslation('room');
  const user = useCurrentUser();
  const form = useSchemaForm(user ? SignedInJoinSchema : GuestJoinSchema, {
    defaultValues: { display_name: initialName ?? '', password: initialPassword ?? '' },
  });
  const { errors } = form.formState;
  const error = errors.display_name ? t('prejoin.name_required') : errors.root?.message;
  const [isPasswordShown, setIsPasswordShown] = useState(
    meeting.is_password === PASSWORD_FLAG.yes && !isHost && !initialPassword,
  );
  const [isJoining, setIsJoining] = useState(false);
  // Join was pressed while the host was away: the page goes in by itself once they start the meeting.
  const [isQueued, setIsQueued] = useState(false);
  const isRestart = isHost && meeting.state === 'ended';

  // While the person is here, the media connection of a running meeting is prepared (ADR 016).
  const isLive = meeting.state === 'live' && !isWaitingForHost;
  useEffect(() => {
    if (!isLive) return undefined;
    prepareJoin(meeting.slug);
    return () => dropPreparedJoin(meeting.slug);
  }, [isLive, meeting.slug]);

  const onValid = () => {
    if (isWaitingForHost) setIsQueued(true);
    else void join();
  };

  // Only the host's arrival (waiting, then not) sends a queued join: a join refused meanwhile waits
  // for the next arrival instead of asking again at once.
  const [wasWaiting, setWasWaiting] = useState(isWaitingForHost);
  const [hasHostArrived, setHasHostArrived] = useState(false);
  if (wasWaiting !== isWaitingForHost) {
    setWasWaiting(isWaitingForHost);
    if (!isWaitingForHost && isQueued) {
      setIsQueued(false);
      setHasHostArrived(true);
    }
  }
  const joinRef = useRef<() => Promise<void>>(undefined);
  useEffect(() => {
    if (hasHostArrived) void joinRef.current?.();
  }, [hasHostArrived]);

  const isJoiningRef = useRef(false);
  const join = async () => {
    if (isJoiningRef.current) return;
    isJoiningRef.current = true;
    // First, before anything renders: the join goes up through the connection prepared for it.
    const joinKey = sendEarlyJoin(meeting.slug);
    setHasHostArrived(false);
    // The screen's re-render would keep the page busy while Janus' answers arrive (ADR 016): a join
    // that goes quickly shows the call instead; a slow one shows that it is joining.
    const showJoining = setTimeout(() => setIsJoining(true), joinKey ? JOINING_SHOWN_AFTER_MS : 0);
    // Read when the join goes: a queued join sends what the fields hold once the host arrives.
    const { display_name: name = '', password } = form.getValues();
    try {
      const answer = await api.call(
        roomCalls.joinRoom,
        {
          meetId: meeting.slug,
          display_name: user ? undefined : name.trim(),
          password: password || undefined,
          backstage: isBackstage ? 1 : undefined,
        },
        { headers: joinKey ? { [JOIN_KEY_HEADER]: joinKey } : undefined },
      );
      const { grant, participant_id: participantId, media } = answer.data;
      if (joinKey && media) await answerEarly(meeting.slug, media.ice_servers, EARLY_ANSWER_WAIT_MS);
      if (media) {
        startEarlyMedia(
          { meetId: meeting.slug, grant, participantId, media },
          { audio: () => local.audioTrack, video: () => (local.isVideoOn ? local.videoTrack : undefined) },
        );
      }
      onJoined(answer.data);
    } catch (caught) {
      if (caught instanceof ApiError && caught.httpStatus === 409) {
        setIsQueued(true);
        onWaitingForHost();
        return;
      }
      const message = caught instanceof ApiError ? caught.message : t('errors.generic');
      // For a password-protected meeting, a refusal of a non-host is the password's (wrong or missing).
      if (
        caught instanceof ApiError &&
        caught.httpStatus === 403 &&
        meeting.is_password === PASSWORD_FLAG.yes &&
        !isHost &&
        !meeting.locked
      ) {
        setIsPasswordShown(true);
        form.setError('password', { message });
      } else {
        form.setError('root', { message });
      }
    } finally {
      clearTimeout(showJoining);
      isJoiningRef.current = false;
      setIsJoining(false);
    }
  };

  useEffect(() => {
    joinRef.current = join;
  });

  return (
    <div className="mx-auto grid max-w-5xl gap-6 p-4 lg:grid-cols-[3fr_2fr]">
      <div className="space-y-3">
        <div className="relative aspect-video overflow-hidden rounded-xl bg-slate-900">
          {local.isVideoOn && local.videoTrack ? (
            <VideoView track={local.videoTrack} isMuted isMirrored label={t('prejoin.preview')} />
          ) : (
            <div className="flex size-full items-center justify-center text-slate-300">{t('prejoin.camera_off')}</div>
          )}
          <div className="absolute inset-x-0 bottom-3 flex justify-center gap-3">
            <button
              type="button"
              onClick={() => local.setAudioOn(!local.isAudioOn)}
              aria-pressed={!local.isAudioOn}
              aria-label={local.isAudioOn ? t('controls.mute') : t('controls.unmute')}
              className={`rounded-full p-3 ${local.isAudioOn ? 'bg-slate-700/80 text-white' : 'bg-red-600 text-white'}`}
            >
              {local.isAudioOn ? <MicIcon className="size-5" /> : <MicOffIcon className="size-5" />}
            </button>
            <button
              type="button"
              onClick={() => void local.setVideoOn(!local.isVideoOn)}
              aria-pressed={!local.isVideoOn}
              aria-label={local.isVideoOn ? t('controls.camera_off') : t('controls.camera_on')}
              className={`rounded-full p-3 ${local.isVideoOn ? 'bg-slate-700/80 text-white' : 'bg-red-600 text-white'}`}
            >
              {local.isVideoOn ? <VideoIcon className="size-5" /> : <VideoOffIcon className="size-5" />}
            </button>
          </div>
        </div>
        <MicLevel track={local.audioTrack} isOn={local.isAudioOn} />
        {local.error && (
          <p role="status" className="text-sm text-amber-700 dark:text-amber-300">
            {t(local.error === 'camera' ? 'prejoin.camera_blocked' : 'prejoin.microphone_blocked')}
          </p>
        )}
        <DeviceSettings local={local} className="sm:grid-cols-3" />
      </div>
      <form onSubmit={(event) => void form.handleSubmit(onValid)(event)} className="space-y-4" noValidate>
        <div>
          <h1 className="text-2xl font-bold text-slate-900 dark:text-white">{meeting.name}</h1>
          {meeting.host_name && (
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {t('prejoin.hosted_by', { name: meeting.host_name })}
            </p>
          )}
        </div>
        {user ? (
          <p className="text-sm text-slate-700 dark:text-slate-200">
            {t('prejoin.joining_as', { name: user.username })}
          </p>
        ) : (
          <TextField
            label={t('prejoin.your_name')}
            maxLength={60}
            autoComplete="name"
            {...form.register('display_name')}
          />
        )}
        {isPasswordShown && (
          <TextField
            label={t('prejoin.password')}
            type="password"
            maxLength={128}
            error={errors.password?.message}
            {...form.register('password')}
          />
        )}
        {notice && (
          <p
            role="status"
            className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          >
            {notice}
          </p>
        )}
        {error && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
            {error}
          </p>
        )}
        {isWaitingForHost && (
          <div
            role="status"
            className="flex gap-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          >
            <Spinner className="size-5 shrink-0" />
            <div>
              <p className="font-semibold">{t('waiting.title')}</p>
              <p>{isQueued ? t('waiting.queued') : t('waiting.text')}</p>
            </div>
          </div>
        )}
        <Button type="submit" size="lg" className="w-full" isLoading={isJoining || isQueued}>
          {isRestart ? t('prejoin.start') : t('prejoin.join')}
        </Button>
      </form>
    </div>
  );
}
