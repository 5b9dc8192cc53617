import type { CallDefinition } from './call.js';
import {
  BroadcastPreviewBodySchema,
  BroadcastViewerBodySchema,
  GetBroadcastViewerInputSchema,
} from '../broadcast-viewer.js';
import { MessageBodySchema } from '../envelope.js';
import { BroadcastReminderBodySchema, SetBroadcastReminderInputSchema } from '../broadcast-followups.js';
import { GetPlatformChatInputSchema, PlatformChatBodySchema, ShowCommentCardInputSchema } from '../platform-chat.js';
import {
  AddRtmpDestinationInputSchema,
  BroadcastMeetInputSchema,
  ChangeBroadcastDestinationInputSchema,
  EditRtmpDestinationInputSchema,
  FinishStreamConnectionInputSchema,
  GetBroadcastInputSchema,
  GoLiveInputSchema,
  LiveBroadcastBodySchema,
  OptionalBroadcastPlanBodySchema,
  OptionalLiveBroadcastBodySchema,
  RecordingListBodySchema,
  RemoveStreamConnectionInputSchema,
  SetBroadcastOverlayInputSchema,
  SetBroadcastStageInputSchema,
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

/* Stream connections, broadcasts, their plans and viewers, and the viewer chat. */
export const getBroadcastViewer = {
  name: 'get-broadcast-viewer.php',
  auth: 'none',
  input: GetBroadcastViewerInputSchema,
  output: BroadcastViewerBodySchema,
} as const satisfies CallDefinition;
export const getBroadcastPreview = {
  name: 'get-broadcast-preview.php',
  auth: 'user',
  input: BroadcastMeetInputSchema,
  output: BroadcastPreviewBodySchema,
} as const satisfies CallDefinition;
export const startBroadcast = {
  name: 'start-broadcast.php',
  auth: 'user',
  input: StartBroadcastInputSchema,
  output: LiveBroadcastBodySchema,
} as const satisfies CallDefinition;
export const goLive = {
  name: 'go-live.php',
  auth: 'user',
  input: GoLiveInputSchema,
  output: LiveBroadcastBodySchema,
} as const satisfies CallDefinition;
export const getBroadcast = {
  name: 'get-broadcast.php',
  auth: 'optional',
  input: GetBroadcastInputSchema,
  output: OptionalLiveBroadcastBodySchema,
} as const satisfies CallDefinition;
export const stopBroadcast = {
  name: 'stop-broadcast.php',
  auth: 'user',
  input: BroadcastMeetInputSchema,
  output: LiveBroadcastBodySchema,
} as const satisfies CallDefinition;
export const changeBroadcastDestination = {
  name: 'change-broadcast-destination.php',
  auth: 'user',
  input: ChangeBroadcastDestinationInputSchema,
  output: LiveBroadcastBodySchema,
} as const satisfies CallDefinition;
export const setBroadcastOverlay = {
  name: 'set-broadcast-overlay.php',
  auth: 'user',
  input: SetBroadcastOverlayInputSchema,
  output: LiveBroadcastBodySchema,
} as const satisfies CallDefinition;
export const setBroadcastStage = {
  name: 'set-broadcast-stage.php',
  auth: 'user',
  input: SetBroadcastStageInputSchema,
  output: LiveBroadcastBodySchema,
} as const satisfies CallDefinition;
export const getRecordings = {
  name: 'get-recordings.php',
  auth: 'user',
  input: TokenOnlyInputSchema,
  output: RecordingListBodySchema,
} as const satisfies CallDefinition;
export const getBroadcastPlan = {
  name: 'get-broadcast-plan.php',
  auth: 'user',
  input: BroadcastMeetInputSchema,
  output: OptionalBroadcastPlanBodySchema,
} as const satisfies CallDefinition;
export const setBroadcastPlan = {
  name: 'set-broadcast-plan.php',
  auth: 'user',
  input: SetBroadcastPlanInputSchema,
  output: OptionalBroadcastPlanBodySchema,
} as const satisfies CallDefinition;
export const getBroadcastReminder = {
  name: 'get-broadcast-reminder.php',
  auth: 'user',
  input: BroadcastMeetInputSchema,
  output: BroadcastReminderBodySchema,
} as const satisfies CallDefinition;
export const setBroadcastReminder = {
  name: 'set-broadcast-reminder.php',
  auth: 'user',
  input: SetBroadcastReminderInputSchema,
  output: BroadcastReminderBodySchema,
} as const satisfies CallDefinition;
export const getStreamConnections = {
  name: 'get-stream-connections.php',
  auth: 'user',
  input: TokenOnlyInputSchema,
  output: StreamConnectionListBodySchema,
} as const satisfies CallDefinition;
export const startStreamConnection = {
  name: 'start-stream-connection.php',
  auth: 'user',
  input: StartStreamConnectionInputSchema,
  output: StartStreamConnectionBodySchema,
} as const satisfies CallDefinition;
export const finishStreamConnection = {
  name: 'finish-stream-connection.php',
  auth: 'user',
  input: FinishStreamConnectionInputSchema,
  output: StreamConnectionBodySchema,
} as const satisfies CallDefinition;
export const addRtmpDestination = {
  name: 'add-rtmp-destination.php',
  auth: 'user',
  input: AddRtmpDestinationInputSchema,
  output: StreamConnectionBodySchema,
} as const satisfies CallDefinition;
export const editRtmpDestination = {
  name: 'edit-rtmp-destination.php',
  auth: 'user',
  input: EditRtmpDestinationInputSchema,
  output: StreamConnectionBodySchema,
} as const satisfies CallDefinition;
export const testRtmpDestination = {
  name: 'test-rtmp-destination.php',
  auth: 'user',
  input: TestRtmpDestinationInputSchema,
  output: StreamConnectionBodySchema,
} as const satisfies CallDefinition;
export const removeStreamConnection = {
  name: 'remove-stream-connection.php',
  auth: 'user',
  input: RemoveStreamConnectionInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const searchTwitchCategories = {
  name: 'search-twitch-categories.php',
  auth: 'user',
  input: TwitchCategorySearchInputSchema,
  output: TwitchCategoryListBodySchema,
} as const satisfies CallDefinition;
export const getViewerChatIdentity = {
  name: 'get-viewer-chat-identity.php',
  auth: 'none',
  input: GetViewerChatIdentityInputSchema,
  output: ViewerChatIdentityBodySchema,
} as const satisfies CallDefinition;
export const getViewerChat = {
  name: 'get-viewer-chat.php',
  auth: 'optional',
  input: GetViewerChatInputSchema,
  output: ViewerChatBodySchema,
} as const satisfies CallDefinition;
export const postViewerChat = {
  name: 'post-viewer-chat.php',
  auth: 'optional',
  input: PostViewerChatInputSchema,
  output: ViewerChatMessageBodySchema,
} as const satisfies CallDefinition;
export const deleteViewerChatMessage = {
  name: 'delete-viewer-chat-message.php',
  auth: 'optional',
  input: ViewerChatMessageInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const moderateViewerChat = {
  name: 'moderate-viewer-chat.php',
  auth: 'optional',
  input: ModerateViewerChatInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const pinViewerChatMessage = {
  name: 'pin-viewer-chat-message.php',
  auth: 'optional',
  input: OptionalMessageInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const setViewerChatSlowMode = {
  name: 'set-viewer-chat-slow-mode.php',
  auth: 'optional',
  input: SetViewerChatSlowModeInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const showViewerChatBanner = {
  name: 'show-viewer-chat-banner.php',
  auth: 'optional',
  input: OptionalMessageInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const getPlatformChat = {
  name: 'get-platform-chat.php',
  auth: 'user',
  input: GetPlatformChatInputSchema,
  output: PlatformChatBodySchema,
} as const satisfies CallDefinition;
export const showCommentCard = {
  name: 'show-comment-card.php',
  auth: 'user',
  input: ShowCommentCardInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
