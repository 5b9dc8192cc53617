export * from './accounts.js';
export * from './meetings.js';
export * from './people.js';
export * from './system.js';
export * from './rooms.js';
export * from './streaming.js';
export * from './polls.js';
export * from './viewer-chat.js';
