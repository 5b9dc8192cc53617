import DOMPurify from 'dompurify';

/**
 * Notification text is HTML from the server. It is sanitized before it is rendered:
 * scripts, event handlers, javascript: links, forms and frames are removed; links open safely.
 */
export function sanitizeNotificationHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
  });
}

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('rel', 'noopener noreferrer');
    if (node.getAttribute('target')) node.setAttribute('target', '_blank');
  }
});
