// What other features may use of the notifications feature; the rest of the folder is private.
export { NotificationMenu } from './notification-menu';
export { useUserEvents } from './use-user-events';
