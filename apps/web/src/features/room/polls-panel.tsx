import { POLL_LIMITS, PollOptionsSchema, PollQuestionSchema, type Poll, type RoomAck } from '@meetcast/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { Button } from '../../components/button';
import { useSchemaForm } from '../../lib/use-schema-form';

type Ask = (question: string, options: string[]) => Promise<RoomAck>;

const INPUT_CLASSES =
  'min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-900';

const NewPollSchema = z.object({
  question: PollQuestionSchema,
  // Answer fields left blank are not answers: the room sees only the filled ones.
  options: z
    .array(z.object({ text: z.string() }))
    .transform((fields) => fields.map((field) => field.text.trim()).filter(Boolean))
    .pipe(PollOptionsSchema),
});
const EMPTY_POLL = { question: '', options: [{ text: '' }, { text: '' }] };

/** Hosts ask a question with two to ten answers; the room checks them again. */
function NewPollForm({ onAsk }: { onAsk: Ask }) {
  const { t } = useTranslation('room');
  const form = useSchemaForm(NewPollSchema, { defaultValues: EMPTY_POLL });
  const options = useFieldArray({ control: form.control, name: 'options' });
  const questionId = useId();
  const { errors, isSubmitting } = form.formState;
  const error = errors.question
    ? t('polls.errors.question_required')
    : errors.options
      ? t('polls.errors.options_required')
      : errors.root?.message;

  const onSubmit = form.handleSubmit(async ({ question, options: answers }) => {
    const ack = await onAsk(question, answers);
    if (ack.ok) form.reset(EMPTY_POLL);
    else form.setError('root', { message: t(`errors.${ack.reason}`) });
  });

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      aria-label={t('polls.new')}
      className="space-y-2 border-b border-slate-200 p-4 dark:border-slate-700"
    >
      <label htmlFor={questionId} className="block text-sm font-medium">
        {t('polls.question')}
      </label>
      <input
        id={questionId}
        maxLength={POLL_LIMITS.question}
        dir="auto"
        autoComplete="off"
        {...form.register('question')}
        className={`${INPUT_CLASSES} w-full`}
      />
      {options.fields.map((field, index) => (
        <div key={field.id} className="flex gap-2">
          <input
            aria-label={t('polls.option', { number: index + 1 })}
            maxLength={POLL_LIMITS.option}
            dir="auto"
            autoComplete="off"
            {...form.register(`options.${index}.text`)}
            className={INPUT_CLASSES}
          />
          {options.fields.length > POLL_LIMITS.minOptions && (
            <Button
              variant="ghost"
              size="sm"
              className="self-center"
              aria-label={t('polls.remove_option', { number: index + 1 })}
              onClick={() => options.remove(index)}
            >
              ×
            </Button>
          )}
        </div>
      ))}
      <div className="flex flex-wrap gap-2">
        {options.fields.length < POLL_LIMITS.maxOptions && (
          <Button variant="secondary" size="sm" onClick={() => options.append({ text: '' }, { shouldFocus: false })}>
            {t('polls.add_option')}
          </Button>
        )}
        <Button type="submit" size="sm" isLoading={isSubmitting}>
          {t('polls.ask')}
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </form>
  );
}

function PollCard({
  poll,
  isHost,
  onVote,
  onClose,
}: {
  poll: Poll;
  isHost: boolean;
  onVote: (choice: number) => Promise<RoomAck>;
  onClose: () => void;
}) {
  const { t } = useTranslation('room');
  const [selected, setSelected] = useState<number | null>(poll.my_choice);
  const [error, setError] = useState<string>();
  const headingId = useId();
  const total = poll.options.reduce((sum, option) => sum + option.votes, 0);
  // Like Zoom and Meet: hosts follow the results live; the others see them once they have voted.
  const showsResults = isHost || poll.closed || poll.my_choice !== null;

  const vote = async () => {
    if (selected === null) return;
    const ack = await onVote(selected);
    setError(ack.ok ? undefined : t(`errors.${ack.reason}`));
  };

  return (
    <li aria-labelledby={headingId} className="space-y-2 rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      <h3 id={headingId} className="font-semibold break-words" dir="auto">
        {poll.question}
      </h3>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        <bdi>{t('polls.by', { name: poll.created_by })}</bdi> · {poll.closed ? t('polls.closed') : t('polls.open')} ·{' '}
        {t('polls.votes', { count: total })}
      </p>
      <fieldset disabled={poll.closed} className="space-y-1.5">
        <legend className="sr-only">{poll.question}</legend>
        {poll.options.map((option, index) => {
          const share = total === 0 ? 0 : Math.round((option.votes / total) * 100);
          return (
            <label key={index} className="block cursor-pointer text-sm">
              <span className="flex items-center gap-2">
                <input
                  type="radio"
                  name={`poll-${poll.id}`}
                  checked={selected === index}
                  onChange={() => setSelected(index)}
                />
                <span className="flex-1 break-words" dir="auto">
                  {option.text}
                </span>
                {showsResults && (
                  <span className="text-xs text-slate-600 tabular-nums dark:text-slate-300">
                    {t('polls.result', { votes: option.votes, share })}
                  </span>
                )}
              </span>
              {showsResults && (
                <span aria-hidden className="mt-1 block h-1.5 rounded bg-slate-200 dark:bg-slate-700">
                  <span className="block h-full rounded bg-primary-600" style={{ width: `${share}%` }} />
                </span>
              )}
            </label>
          );
        })}
      </fieldset>
      {!poll.closed && (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" disabled={selected === null || selected === poll.my_choice} onClick={() => void vote()}>
            {poll.my_choice === null ? t('polls.vote') : t('polls.change_vote')}
          </Button>
          {isHost && (
            <Button size="sm" variant="secondary" onClick={onClose}>
              {t('polls.close')}
            </Button>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </li>
  );
}

/** The room's polls, newest first; hosts also ask and close them. */
export function PollsPanel({
  polls,
  isHost,
  onAsk,
  onVote,
  onClose,
}: {
  polls: Poll[];
  isHost: boolean;
  onAsk: Ask;
  onVote: (pollId: number, choice: number) => Promise<RoomAck>;
  onClose: (pollId: number) => void;
}) {
  const { t } = useTranslation('room');
  return (
    <section aria-label={t('polls.title')} className="flex h-full min-h-0 flex-col">
      <h2 className="border-b border-slate-200 px-4 py-3 font-semibold dark:border-slate-700">{t('polls.title')}</h2>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {isHost && <NewPollForm onAsk={onAsk} />}
        <ol aria-live="polite" className="space-y-3 p-4">
          {polls.length === 0 && (
            <li className="text-sm text-slate-600 dark:text-slate-400">
              {isHost ? t('polls.empty_host') : t('polls.empty')}
            </li>
          )}
          {[...polls].reverse().map((poll) => (
            <PollCard
              key={poll.id}
              poll={poll}
              isHost={isHost}
              onVote={(choice) => onVote(poll.id, choice)}
              onClose={() => onClose(poll.id)}
            />
          ))}
        </ol>
      </div>
    </section>
  );
}

/** A poll asked while the panel is closed raises a toast; polls that were there at joining do not. */
export function usePollToasts(polls: Poll[], isPanelOpen: boolean, selfName: string | undefined) {
  const { t } = useTranslation('room');
  const seen = useRef<Set<number> | undefined>(undefined);
  useEffect(() => {
    if (!seen.current) {
      seen.current = new Set(polls.map((poll) => poll.id));
      return;
    }
    for (const poll of polls) {
      if (seen.current.has(poll.id)) continue;
      seen.current.add(poll.id);
      if (!isPanelOpen && poll.created_by !== selfName) {
        toast.info(t('polls.started', { name: poll.created_by, question: poll.question }));
      }
    }
  }, [polls, isPanelOpen, selfName, t]);
}
