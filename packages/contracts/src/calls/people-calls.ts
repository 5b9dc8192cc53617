import type { CallTable } from './call.js';
import { TokenInputSchema } from '../accounts.js';
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

/** Contacts and channels. */
export const peopleCalls = {
  'check-channel-slug.php': { auth: 'user', input: CheckChannelSlugInputSchema, output: MessageBodySchema },
  'create-channel.php': { auth: 'user', input: CreateChannelInputSchema, output: ChannelBodySchema },
  'update-channel.php': { auth: 'user', input: UpdateChannelInputSchema, output: ChannelBodySchema },
  'get-edit-channel.php': { auth: 'user', input: ChannelIdInputSchema, output: ChannelBodySchema },
  'upload-channel-image.php': { auth: 'user', input: UploadChannelImageInputSchema, output: ChannelBodySchema },
  'get-my-channel.php': { auth: 'user', input: TokenInputSchema, output: MyChannelBodySchema },
  'get-channels.php': { auth: 'none', input: GetChannelsInputSchema, output: ChannelListBodySchema },
  'get-channel.php': { auth: 'none', input: GetChannelInputSchema, output: ChannelPageBodySchema },
  'follow-channel.php': { auth: 'user', input: ChannelIdInputSchema, output: FollowBodySchema },
  'unfollow-channel.php': { auth: 'user', input: ChannelIdInputSchema, output: FollowBodySchema },
  'schedule-broadcast.php': { auth: 'user', input: ScheduleBroadcastInputSchema, output: BroadcastBodySchema },
  'get-contacts.php': { auth: 'user', input: GetContactsInputSchema, output: ContactListBodySchema },
  'add-contact.php': { auth: 'user', input: AddContactInputSchema, output: ContactBodySchema },
  'update-contact.php': { auth: 'user', input: UpdateContactInputSchema, output: ContactBodySchema },
  'delete-contact.php': { auth: 'user', input: ContactIdInputSchema, output: MessageBodySchema },
  'restore-contact.php': { auth: 'user', input: ContactIdInputSchema, output: ContactBodySchema },
  'import-contacts.php': { auth: 'user', input: ImportContactsInputSchema, output: ImportContactsBodySchema },
  'export-contacts.php': { auth: 'user', input: ExportContactsInputSchema, output: ExportContactsBodySchema },
  'call-contact.php': { auth: 'user', input: ContactIdInputSchema, output: CallContactBodySchema },
  'get-meetings-to-invite.php': { auth: 'user', input: TokenInputSchema, output: InvitableMeetingsBodySchema },
  'invite-contact.php': { auth: 'user', input: InviteContactInputSchema, output: MessageBodySchema },
} as const satisfies CallTable;
