import { resolve } from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import { tableOwners } from './table-owners.js';

const server = (path: string) => resolve(import.meta.dirname, '../../apps/server/src', path);
const options = [{ meetings: 'apps/server/src/meeting-records' }];

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

tester.run('table-owners', tableOwners, {
  valid: [
    {
      filename: server('meeting-records/meeting-repository.ts'),
      code: "import { meetings } from '@meetcast/db'; db.update(meetings).set({});",
      options,
    },
    {
      filename: server('admin/meeting-routes.ts'),
      code: "import { meetings } from '@meetcast/db'; db.select().from(meetings);",
      options,
    },
    {
      filename: server('rooms/room-lifecycle.ts'),
      code: "import { roomParticipants } from '@meetcast/db'; db.update(roomParticipants).set({});",
      options,
    },
    {
      filename: server('meeting-records/x.ts'),
      code: "import { meetings as m } from '@meetcast/db'; tx.delete(m);",
      options,
    },
  ],
  invalid: [
    {
      filename: server('rooms/room-lifecycle.ts'),
      code: "import { meetings } from '@meetcast/db'; context.db.update(meetings).set({ state: 'live' });",
      options,
      errors: [{ messageId: 'foreignWrite' }],
    },
    {
      filename: server('admin/meeting-routes.ts'),
      code: "import { meetings as m } from '@meetcast/db'; tx.delete(m).where(x);",
      options,
      errors: [{ messageId: 'foreignWrite' }],
    },
    {
      // A folder whose name only starts like the owner's is not the owner.
      filename: server('meeting-records-copy/sneaky.ts'),
      code: "import { meetings } from '@meetcast/db'; db.insert(meetings).values({});",
      options,
      errors: [{ messageId: 'foreignWrite' }],
    },
  ],
});
