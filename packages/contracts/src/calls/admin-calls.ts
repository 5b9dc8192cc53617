import type { CallDefinition } from './call.js';
import {
  AdminAuditListBodySchema,
  AdminAuditListInputSchema,
  AdminBulkBodySchema,
  AdminChannelListBodySchema,
  AdminChannelListInputSchema,
  AdminContactBodySchema,
  AdminContactListBodySchema,
  AdminContactListInputSchema,
  AdminDashboardBodySchema,
  AdminDeleteEventInputSchema,
  AdminEventListBodySchema,
  AdminEventListInputSchema,
  AdminIdInputSchema,
  AdminIdsInputSchema,
  AdminMeetingListBodySchema,
  AdminMeetingListInputSchema,
  AdminReplyContactInputSchema,
  AdminTokenInputSchema,
  AdminUpdateContactInputSchema,
  AdminUpdateRoleInputSchema,
  AdminUserDetailBodySchema,
  AdminUserListBodySchema,
  AdminUserListInputSchema,
} from '../admin.js';
import { MessageBodySchema } from '../envelope.js';

/* The administration pages. */
export const getUsers = {
  name: 'admin-get-users.php',
  auth: 'admin',
  input: AdminUserListInputSchema,
  output: AdminUserListBodySchema,
} as const satisfies CallDefinition;
export const getUser = {
  name: 'admin-get-user.php',
  auth: 'admin',
  input: AdminIdInputSchema,
  output: AdminUserDetailBodySchema,
} as const satisfies CallDefinition;
export const updateUserRole = {
  name: 'admin-update-user-role.php',
  auth: 'admin',
  input: AdminUpdateRoleInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const disableUsers = {
  name: 'admin-disable-users.php',
  auth: 'admin',
  input: AdminIdsInputSchema,
  output: AdminBulkBodySchema,
} as const satisfies CallDefinition;
export const enableUsers = {
  name: 'admin-enable-users.php',
  auth: 'admin',
  input: AdminIdsInputSchema,
  output: AdminBulkBodySchema,
} as const satisfies CallDefinition;
export const deleteUsers = {
  name: 'admin-delete-users.php',
  auth: 'admin',
  input: AdminIdsInputSchema,
  output: AdminBulkBodySchema,
} as const satisfies CallDefinition;
export const sendPasswordReset = {
  name: 'admin-send-password-reset.php',
  auth: 'admin',
  input: AdminIdInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const getMeetings = {
  name: 'admin-get-meetings.php',
  auth: 'admin',
  input: AdminMeetingListInputSchema,
  output: AdminMeetingListBodySchema,
} as const satisfies CallDefinition;
export const endMeeting = {
  name: 'admin-end-meeting.php',
  auth: 'admin',
  input: AdminIdInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const deleteMeeting = {
  name: 'admin-delete-meeting.php',
  auth: 'admin',
  input: AdminIdInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const getEvents = {
  name: 'admin-get-events.php',
  auth: 'admin',
  input: AdminEventListInputSchema,
  output: AdminEventListBodySchema,
} as const satisfies CallDefinition;
export const deleteEvent = {
  name: 'admin-delete-event.php',
  auth: 'admin',
  input: AdminDeleteEventInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const dashboard = {
  name: 'admin-dashboard.php',
  auth: 'admin',
  input: AdminTokenInputSchema,
  output: AdminDashboardBodySchema,
} as const satisfies CallDefinition;
export const getAuditLog = {
  name: 'admin-get-audit-log.php',
  auth: 'admin',
  input: AdminAuditListInputSchema,
  output: AdminAuditListBodySchema,
} as const satisfies CallDefinition;
export const getChannels = {
  name: 'admin-get-channels.php',
  auth: 'admin',
  input: AdminChannelListInputSchema,
  output: AdminChannelListBodySchema,
} as const satisfies CallDefinition;
export const hideChannel = {
  name: 'admin-hide-channel.php',
  auth: 'admin',
  input: AdminIdInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const unhideChannel = {
  name: 'admin-unhide-channel.php',
  auth: 'admin',
  input: AdminIdInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const deleteChannel = {
  name: 'admin-delete-channel.php',
  auth: 'admin',
  input: AdminIdInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const getContactMessages = {
  name: 'admin-get-contact-messages.php',
  auth: 'admin',
  input: AdminContactListInputSchema,
  output: AdminContactListBodySchema,
} as const satisfies CallDefinition;
export const updateContactMessage = {
  name: 'admin-update-contact-message.php',
  auth: 'admin',
  input: AdminUpdateContactInputSchema,
  output: AdminContactBodySchema,
} as const satisfies CallDefinition;
export const replyContactMessage = {
  name: 'admin-reply-contact-message.php',
  auth: 'admin',
  input: AdminReplyContactInputSchema,
  output: AdminContactBodySchema,
} as const satisfies CallDefinition;
export const deleteContactMessage = {
  name: 'admin-delete-contact-message.php',
  auth: 'admin',
  input: AdminIdInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
