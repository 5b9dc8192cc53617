/** Text written into HTML (mails, notifications, pages) with its markup characters made inert. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The search with the LIKE wildcards (`%`, `_`) and the escape character `\` taken literally. */
export function escapeLike(search: string): string {
  return search.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A "contains" pattern for LIKE/ILIKE; the search's own wildcards are matched literally. */
export function containsPattern(search: string): string {
  return `%${escapeLike(search)}%`;
}
