/**
 * `/janus-watch?grant=…&start=1`: the proxy opens the Janus session, attaches the Streaming plugin
 * and asks to `watch` by itself, so the viewer's first message is its answer to the offer (ADR 011).
 * A module without zod, exported on its own (`@meetcast/contracts/viewer-watch`): the channel page's
 * early watch must not load the schemas before it connects (ADR 011).
 */
export const WATCH_STARTED_BY_PROXY_PARAM = 'start';
