// The real Meetcast server on embedded PGlite (its own managed Janus) with a public meeting whose
// broadcast is live, its room placed on Janus (so the viewer count asks Janus, as in production), and
// its host signed in; prints {port, slug, token, pid}. No composer: what viewers ask is measured.
import { serveLiveMeeting } from './live-meeting.js';

await serveLiveMeeting('Broadcast viewer bench', 'broadcast-viewer-bench', async ({ context }, meetingId) => {
  await context.media.ensureRoom({ id: meetingId, name: 'Broadcast viewer bench' });
});
