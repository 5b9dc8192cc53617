// The real Meetcast server on embedded PGlite with a public meeting whose broadcast is live (a row, no
// composer: the chat is what is measured); prints {port, slug, token, pid}.
import { serveLiveMeeting } from './live-meeting.js';

await serveLiveMeeting('Viewer chat bench', 'viewer-chat-bench');
