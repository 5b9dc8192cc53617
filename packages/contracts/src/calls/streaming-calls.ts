import type { CallTable } from './call.js';
import { BroadcastViewerBodySchema, GetBroadcastViewerInputSchema } from '../broadcast-viewer.js';
import { MessageBodySchema } from '../envelope.js';
import {
  AddRtmpDestinationInputSchema,
  BroadcastMeetInputSchema,
  ChangeBroadcastDestinationInputSchema,
  EditRtmpDestinationInputSchema,
  FinishStreamConnectionInputSchema,
  GetBroadcastInputSchema,
  LiveBroadcastBodySchema,
  OptionalBroadcastPlanBodySchema,
  OptionalLiveBroadcastBodySchema,
  RecordingListBodySchema,
  RemoveStreamConnectionInputSchema,
  SetBroadcastOverlayInputSchema,
  SetBroadcastPlanInputSchema,
  StartBroadcastInputSchema,
  StartStreamConnectionBodySchema,
  StartStreamConnectionInputSchema,
  StreamConnectionBodySchema,
  StreamConnectionListBodySchema,
  TestRtmpDestinationInputSchema,
  TokenOnlyInputSchema,
  TwitchCategoryListBodySchema,
  TwitchCategorySearchInputSchema,
} from '../streaming.js';
import {
  GetViewerChatIdentityInputSchema,
  GetViewerChatInputSchema,
  ModerateViewerChatInputSchema,
  OptionalMessageInputSchema,
  PostViewerChatInputSchema,
  SetViewerChatSlowModeInputSchema,
  ViewerChatBodySchema,
  ViewerChatIdentityBodySchema,
  ViewerChatMessageBodySchema,
  ViewerChatMessageInputSchema,
} from '../viewer-chat.js';

/** Stream connections, broadcasts, their plans and viewers, and the viewer chat. */
export const streamingCalls = {
  'get-broadcast-viewer.php': { auth: 'none', input: GetBroadcastViewerInputSchema, output: BroadcastViewerBodySchema },
  'start-broadcast.php': { auth: 'user', input: StartBroadcastInputSchema, output: LiveBroadcastBodySchema },
  'get-broadcast.php': { auth: 'optional', input: GetBroadcastInputSchema, output: OptionalLiveBroadcastBodySchema },
  'stop-broadcast.php': { auth: 'user', input: BroadcastMeetInputSchema, output: LiveBroadcastBodySchema },
  'change-broadcast-destination.php': {
    auth: 'user',
    input: ChangeBroadcastDestinationInputSchema,
    output: LiveBroadcastBodySchema,
  },
  'set-broadcast-overlay.php': { auth: 'user', input: SetBroadcastOverlayInputSchema, output: LiveBroadcastBodySchema },
  'get-recordings.php': { auth: 'user', input: TokenOnlyInputSchema, output: RecordingListBodySchema },
  'get-broadcast-plan.php': { auth: 'user', input: BroadcastMeetInputSchema, output: OptionalBroadcastPlanBodySchema },
  'set-broadcast-plan.php': {
    auth: 'user',
    input: SetBroadcastPlanInputSchema,
    output: OptionalBroadcastPlanBodySchema,
  },
  'get-stream-connections.php': { auth: 'user', input: TokenOnlyInputSchema, output: StreamConnectionListBodySchema },
  'start-stream-connection.php': {
    auth: 'user',
    input: StartStreamConnectionInputSchema,
    output: StartStreamConnectionBodySchema,
  },
  'finish-stream-connection.php': {
    auth: 'user',
    input: FinishStreamConnectionInputSchema,
    output: StreamConnectionBodySchema,
  },
  'add-rtmp-destination.php': {
    auth: 'user',
    input: AddRtmpDestinationInputSchema,
    output: StreamConnectionBodySchema,
  },
  'edit-rtmp-destination.php': {
    auth: 'user',
    input: EditRtmpDestinationInputSchema,
    output: StreamConnectionBodySchema,
  },
  'test-rtmp-destination.php': {
    auth: 'user',
    input: TestRtmpDestinationInputSchema,
    output: StreamConnectionBodySchema,
  },
  'remove-stream-connection.php': { auth: 'user', input: RemoveStreamConnectionInputSchema, output: MessageBodySchema },
  'search-twitch-categories.php': {
    auth: 'user',
    input: TwitchCategorySearchInputSchema,
    output: TwitchCategoryListBodySchema,
  },
  'get-viewer-chat-identity.php': {
    auth: 'none',
    input: GetViewerChatIdentityInputSchema,
    output: ViewerChatIdentityBodySchema,
  },
  'get-viewer-chat.php': { auth: 'optional', input: GetViewerChatInputSchema, output: ViewerChatBodySchema },
  'post-viewer-chat.php': { auth: 'optional', input: PostViewerChatInputSchema, output: ViewerChatMessageBodySchema },
  'delete-viewer-chat-message.php': {
    auth: 'optional',
    input: ViewerChatMessageInputSchema,
    output: MessageBodySchema,
  },
  'moderate-viewer-chat.php': { auth: 'optional', input: ModerateViewerChatInputSchema, output: MessageBodySchema },
  'pin-viewer-chat-message.php': { auth: 'optional', input: OptionalMessageInputSchema, output: MessageBodySchema },
  'set-viewer-chat-slow-mode.php': {
    auth: 'optional',
    input: SetViewerChatSlowModeInputSchema,
    output: MessageBodySchema,
  },
  'show-viewer-chat-banner.php': { auth: 'optional', input: OptionalMessageInputSchema, output: MessageBodySchema },
} as const satisfies CallTable;
