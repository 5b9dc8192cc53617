// What other features may use of the live studio; the rest of the folder is private.
export { LivePanel } from './live-panel';
export { LiveBadge } from './live-badge';
export { GoLiveAction } from './go-live-dialog';
export { useLiveBroadcast, isBroadcastActive } from './live-api';
export type { StudioRoom } from './stage-list';
export { GoLivePlanFields, useGoLivePlan } from './go-live-plan';
export type { GoLivePlan } from './destination-requests';
