// What other features may use of the viewer chat; the rest of the folder is private.
export { ViewerChat } from './viewer-chat';
export { RoomChatTabs } from './room-chat-tabs';
export { useViewerChat } from './use-viewer-chat';
