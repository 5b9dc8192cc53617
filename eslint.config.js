import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import meetcast from './scripts/eslint/feature-borders.js';

const TEST_KIT_ONLY = {
  group: ['**/apps/server/test/**'],
  message: 'Stand-ins shared outside the server come from @meetcast/testkit.',
};
/** Outside the server, its code is reached through its public entries only. */
const SERVER_ENTRIES_ONLY = {
  group: ['**/apps/server/src/**'],
  message:
    "Use the server's public entries: @meetcast/server, @meetcast/server/tooling, @meetcast/server/composer-parts.",
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'packages/db/migrations/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // A table with one owner is written only by that owner's repository (ADR 013), and the server's
    // layers import downwards only.
    files: ['apps/server/src/**/*.ts'],
    plugins: { meetcast },
    rules: {
      // No feature below imports one above (docs/ARCHITECTURE.md, "Layers of the server").
      'meetcast/server-layers': 'error',
      // Nor do two folders import each other, directly or through others (ADR 024).
      'meetcast/folder-loops': 'error',
      'meetcast/table-owners': [
        'error',
        {
          meetings: 'apps/server/src/meeting-records',
          meetingExceptions: 'apps/server/src/meeting-records',
          meetingInvitees: 'apps/server/src/meeting-records',
          meetingAttendance: 'apps/server/src/rooms',
          calendarEvents: 'apps/server/src/meetings',
          roomParticipants: 'apps/server/src/rooms',
          chatMessages: 'apps/server/src/rooms',
          meetingPolls: 'apps/server/src/rooms',
          meetingPollVotes: 'apps/server/src/rooms',
          roomCredentials: 'apps/server/src/media',
          mediaServers: 'apps/server/src/media',
          users: 'apps/server/src/accounts',
          sessions: 'apps/server/src/accounts',
          contacts: 'apps/server/src/contacts',
          channels: 'apps/server/src/channels',
          channelFollowers: 'apps/server/src/channels',
          contactMessages: 'apps/server/src/contact-us',
          streamConnections: 'apps/server/src/streaming',
          // A broadcast's state has one owner and a transitions table (ADR 020).
          liveBroadcasts: 'apps/server/src/streaming/state',
          broadcastDestinations: 'apps/server/src/streaming/state',
          broadcastPlans: 'apps/server/src/streaming',
          viewerChatMessages: 'apps/server/src/viewer-chat',
          viewerChatSettings: 'apps/server/src/viewer-chat',
          viewerChatBans: 'apps/server/src/viewer-chat',
        },
      ],
    },
  },
  {
    // The stand-ins that tests, the end-to-end suite and the benches share live in the test kit
    // (packages/testkit, ADR 029); apps/server/test holds the server's own tests only, and the
    // server's code is reached through its public entries (a bench server starts the real server
    // through `@meetcast/server`).
    files: ['e2e/**/*.ts', 'bench/**/*.ts', 'playwright.config.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [TEST_KIT_ONLY, SERVER_ENTRIES_ONLY] }] },
  },
  {
    // The shared packages depend on no app: the test kit stands in for the world around the server,
    // and so never borrows the server's own code.
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/**', '@meetcast/server', '@meetcast/web'], message: 'Packages do not import the apps.' },
          ],
        },
      ],
    },
  },
  {
    // The web app never reaches into the server or the database: it knows them only through the API
    // and the shared contracts (packages/contracts).
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, meetcast },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Feature folders meet only through their index.ts (docs/ARCHITECTURE.md, "The web app frame").
      'meetcast/feature-borders': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@meetcast/db', '@meetcast/server', '**/apps/server/**'],
              message: 'The web app talks to the server only over HTTP.',
            },
            {
              group: ['@meetcast/contracts/call-table'],
              message: 'A page imports the definitions it calls (accountCalls, roomCalls, …), not the whole table.',
            },
          ],
        },
      ],
      // A call is named by its definition (`api.call(roomCalls.getRoom, …)`), which carries the wire name
      // once (ADR 027), never by a string.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/^[a-z-]+\\.php$/]',
          message: "Pass the call's definition from @meetcast/contracts (e.g. roomCalls.getRoom), not its name.",
        },
      ],
    },
  },
);
