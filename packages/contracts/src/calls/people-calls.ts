import type { CallDefinition } from './call.js';
import { TokenInputSchema } from '../accounts.js';
import {
  AddBrandOverlayInputSchema,
  BrandKitBodySchema,
  BrandKitInputSchema,
  RemoveBrandImageInputSchema,
  RemoveBrandOverlayInputSchema,
  UpdateBrandKitInputSchema,
  UploadBrandImageInputSchema,
} from '../brand-kit.js';
import {
  BroadcastBodySchema,
  ChannelBodySchema,
  ChannelIdInputSchema,
  ChannelListBodySchema,
  ChannelPageBodySchema,
  CheckChannelSlugInputSchema,
  CreateChannelInputSchema,
  FollowBodySchema,
  GetChannelInputSchema,
  GetChannelsInputSchema,
  MyChannelBodySchema,
  ScheduleBroadcastInputSchema,
  UpdateChannelInputSchema,
  UploadChannelImageInputSchema,
} from '../channels.js';
import { ContactUsInputSchema } from '../contact-us.js';
import {
  AddContactInputSchema,
  CallContactBodySchema,
  ContactBodySchema,
  ContactIdInputSchema,
  ContactListBodySchema,
  ExportContactsBodySchema,
  ExportContactsInputSchema,
  GetContactsInputSchema,
  ImportContactsBodySchema,
  ImportContactsInputSchema,
  InvitableMeetingsBodySchema,
  InviteContactInputSchema,
  UpdateContactInputSchema,
} from '../contacts.js';
import { MessageBodySchema } from '../envelope.js';
import {
  ChangePasswordInputSchema,
  ConfirmEmailChangeInputSchema,
  DeleteAccountInputSchema,
  MyDataBodySchema,
  ProfileBodySchema,
  ProfileInputSchema,
  RevokeSessionInputSchema,
  SessionListBodySchema,
  UpdateProfileInputSchema,
  UploadAvatarInputSchema,
} from '../profile.js';

/* Contacts, channels, the profile and the contact form. */
export const contactUs = {
  name: 'contact-us.php',
  auth: 'none',
  input: ContactUsInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const getProfile = {
  name: 'get-profile.php',
  auth: 'user',
  input: ProfileInputSchema,
  output: ProfileBodySchema,
} as const satisfies CallDefinition;
export const updateProfile = {
  name: 'update-profile.php',
  auth: 'user',
  input: UpdateProfileInputSchema,
  output: ProfileBodySchema,
} as const satisfies CallDefinition;
export const confirmEmailChange = {
  name: 'confirm-email-change.php',
  auth: 'user',
  input: ConfirmEmailChangeInputSchema,
  output: ProfileBodySchema,
} as const satisfies CallDefinition;
export const uploadAvatar = {
  name: 'upload-avatar.php',
  auth: 'user',
  input: UploadAvatarInputSchema,
  output: ProfileBodySchema,
} as const satisfies CallDefinition;
export const removeAvatar = {
  name: 'remove-avatar.php',
  auth: 'user',
  input: ProfileInputSchema,
  output: ProfileBodySchema,
} as const satisfies CallDefinition;
export const changePassword = {
  name: 'change-password.php',
  auth: 'user',
  input: ChangePasswordInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const getSessions = {
  name: 'get-sessions.php',
  auth: 'user',
  input: ProfileInputSchema,
  output: SessionListBodySchema,
} as const satisfies CallDefinition;
export const revokeSession = {
  name: 'revoke-session.php',
  auth: 'user',
  input: RevokeSessionInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const exportMyData = {
  name: 'export-my-data.php',
  auth: 'user',
  input: ProfileInputSchema,
  output: MyDataBodySchema,
} as const satisfies CallDefinition;
export const deleteAccount = {
  name: 'delete-account.php',
  auth: 'user',
  input: DeleteAccountInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const checkChannelSlug = {
  name: 'check-channel-slug.php',
  auth: 'user',
  input: CheckChannelSlugInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const createChannel = {
  name: 'create-channel.php',
  auth: 'user',
  input: CreateChannelInputSchema,
  output: ChannelBodySchema,
} as const satisfies CallDefinition;
export const updateChannel = {
  name: 'update-channel.php',
  auth: 'user',
  input: UpdateChannelInputSchema,
  output: ChannelBodySchema,
} as const satisfies CallDefinition;
export const getEditChannel = {
  name: 'get-edit-channel.php',
  auth: 'user',
  input: ChannelIdInputSchema,
  output: ChannelBodySchema,
} as const satisfies CallDefinition;
export const uploadChannelImage = {
  name: 'upload-channel-image.php',
  auth: 'user',
  input: UploadChannelImageInputSchema,
  output: ChannelBodySchema,
} as const satisfies CallDefinition;
export const getMyChannel = {
  name: 'get-my-channel.php',
  auth: 'user',
  input: TokenInputSchema,
  output: MyChannelBodySchema,
} as const satisfies CallDefinition;
export const getChannels = {
  name: 'get-channels.php',
  auth: 'none',
  input: GetChannelsInputSchema,
  output: ChannelListBodySchema,
} as const satisfies CallDefinition;
export const getChannel = {
  name: 'get-channel.php',
  auth: 'none',
  input: GetChannelInputSchema,
  output: ChannelPageBodySchema,
} as const satisfies CallDefinition;
export const followChannel = {
  name: 'follow-channel.php',
  auth: 'user',
  input: ChannelIdInputSchema,
  output: FollowBodySchema,
} as const satisfies CallDefinition;
export const unfollowChannel = {
  name: 'unfollow-channel.php',
  auth: 'user',
  input: ChannelIdInputSchema,
  output: FollowBodySchema,
} as const satisfies CallDefinition;
export const scheduleBroadcast = {
  name: 'schedule-broadcast.php',
  auth: 'user',
  input: ScheduleBroadcastInputSchema,
  output: BroadcastBodySchema,
} as const satisfies CallDefinition;
export const getContacts = {
  name: 'get-contacts.php',
  auth: 'user',
  input: GetContactsInputSchema,
  output: ContactListBodySchema,
} as const satisfies CallDefinition;
export const addContact = {
  name: 'add-contact.php',
  auth: 'user',
  input: AddContactInputSchema,
  output: ContactBodySchema,
} as const satisfies CallDefinition;
export const updateContact = {
  name: 'update-contact.php',
  auth: 'user',
  input: UpdateContactInputSchema,
  output: ContactBodySchema,
} as const satisfies CallDefinition;
export const deleteContact = {
  name: 'delete-contact.php',
  auth: 'user',
  input: ContactIdInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const restoreContact = {
  name: 'restore-contact.php',
  auth: 'user',
  input: ContactIdInputSchema,
  output: ContactBodySchema,
} as const satisfies CallDefinition;
export const importContacts = {
  name: 'import-contacts.php',
  auth: 'user',
  input: ImportContactsInputSchema,
  output: ImportContactsBodySchema,
} as const satisfies CallDefinition;
export const exportContacts = {
  name: 'export-contacts.php',
  auth: 'user',
  input: ExportContactsInputSchema,
  output: ExportContactsBodySchema,
} as const satisfies CallDefinition;
export const callContact = {
  name: 'call-contact.php',
  auth: 'user',
  input: ContactIdInputSchema,
  output: CallContactBodySchema,
} as const satisfies CallDefinition;
export const getMeetingsToInvite = {
  name: 'get-meetings-to-invite.php',
  auth: 'user',
  input: TokenInputSchema,
  output: InvitableMeetingsBodySchema,
} as const satisfies CallDefinition;
export const inviteContact = {
  name: 'invite-contact.php',
  auth: 'user',
  input: InviteContactInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const getBrandKit = {
  name: 'get-brand-kit.php',
  auth: 'user',
  input: BrandKitInputSchema,
  output: BrandKitBodySchema,
} as const satisfies CallDefinition;
export const updateBrandKit = {
  name: 'update-brand-kit.php',
  auth: 'user',
  input: UpdateBrandKitInputSchema,
  output: BrandKitBodySchema,
} as const satisfies CallDefinition;
export const uploadBrandImage = {
  name: 'upload-brand-image.php',
  auth: 'user',
  input: UploadBrandImageInputSchema,
  output: BrandKitBodySchema,
} as const satisfies CallDefinition;
export const removeBrandImage = {
  name: 'remove-brand-image.php',
  auth: 'user',
  input: RemoveBrandImageInputSchema,
  output: BrandKitBodySchema,
} as const satisfies CallDefinition;
export const addBrandOverlay = {
  name: 'add-brand-overlay.php',
  auth: 'user',
  input: AddBrandOverlayInputSchema,
  output: BrandKitBodySchema,
} as const satisfies CallDefinition;
export const removeBrandOverlay = {
  name: 'remove-brand-overlay.php',
  auth: 'user',
  input: RemoveBrandOverlayInputSchema,
  output: BrandKitBodySchema,
} as const satisfies CallDefinition;
