import type { ReactNode } from 'react';

const URL_PATTERN = /(https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]])/g;

/**
 * A viewer's text as text nodes; only http(s) addresses become links, marked as user content that
 * search engines should not follow and that cannot reach back to this page. Never HTML.
 */
export function MessageText({ text }: { text: string }) {
  const parts: ReactNode[] = text.split(URL_PATTERN).map((part, index) =>
    index % 2 === 1 ? (
      <a
        key={index}
        href={part}
        target="_blank"
        rel="noopener noreferrer nofollow ugc"
        className="break-all text-primary-700 underline dark:text-primary-300"
      >
        {part}
      </a>
    ) : (
      part
    ),
  );
  return (
    <p className="whitespace-pre-wrap break-words" dir="auto">
      {parts}
    </p>
  );
}
