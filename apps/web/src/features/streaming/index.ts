// What other features may use of the streaming feature; the rest of the folder is private.
export { PlatformMark } from './platform-icons';
export { ConnectionStatus } from './connection-status';
export { RecordingButton } from './recording-button';
export { RecordingsSection } from './recordings-section';
export { useStreamConnections } from './streaming-api';
export { CommentCard, CommentSourceMark } from './comment-card';
