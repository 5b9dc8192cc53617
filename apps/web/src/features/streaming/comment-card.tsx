import type { CommentCard as CommentCardValue } from '@meetcast/contracts';
import { MessageCircleIcon } from 'lucide-react';
import { PlatformMark } from './platform-icons';

/** The author's initials, when the platform gave no picture. */
const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => [...part][0]?.toUpperCase() ?? '')
    .join('') || '?';

/** A source's mark: the platform's, or the channel page's own chat. */
export function CommentSourceMark({ source, size = 'sm' }: { source: CommentCardValue['source']; size?: 'sm' | 'md' }) {
  if (source !== 'meetcast') return <PlatformMark platform={source} size={size} />;
  return (
    <span
      aria-hidden
      className={`inline-flex shrink-0 items-center justify-center rounded-lg bg-primary-600 text-white ${size === 'sm' ? 'size-6' : 'size-10'}`}
    >
      <MessageCircleIcon className={size === 'sm' ? 'size-4' : 'size-6'} />
    </span>
  );
}

/**
 * A viewer's message on the stream (ADR 040): picture (or initials), name with the platform's mark,
 * and the text, upper left where the banner and ticker never are. Text nodes only: the server
 * already removed markup, and React would show any left as text.
 */
export function CommentCard({ card }: { card: CommentCardValue }) {
  return (
    <div
      data-comment-card
      className="absolute start-10 top-10 flex max-w-[40rem] items-start gap-4 rounded-2xl bg-white/95 p-5 text-slate-900 shadow-2xl"
    >
      {card.avatar ? (
        <img src={card.avatar} alt="" className="size-16 shrink-0 rounded-full object-cover" />
      ) : (
        <span
          aria-hidden
          className="flex size-16 shrink-0 items-center justify-center rounded-full bg-primary-600 text-2xl font-bold text-white"
        >
          {initialsOf(card.author_name)}
        </span>
      )}
      <div className="min-w-0 space-y-1">
        <p className="flex items-center gap-2 text-xl font-semibold">
          <CommentSourceMark source={card.source} />
          <bdi className="truncate">{card.author_name}</bdi>
        </p>
        <p dir="auto" className="line-clamp-4 text-2xl leading-snug break-words">
          {card.text}
        </p>
      </div>
    </div>
  );
}
