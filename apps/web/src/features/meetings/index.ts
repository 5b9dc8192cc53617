// What other features may use of the meetings feature; the rest of the folder is private.
export { MeetingDialogsProvider, useMeetingDialogs, type MeetingDialog } from './meeting-dialogs';
export { meetingsApi } from './meetings-api';
