import { resolve } from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import { folderLoops } from './folder-loops.js';

const source = (path: string) => resolve(import.meta.dirname, '../../apps/server/src', path);

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

// The graph is the server's real source: streaming imports rooms, channels imports streaming.
tester.run('folder-loops', folderLoops, {
  valid: [
    { filename: source('streaming/broadcast-service.ts'), code: "import { x } from '../rooms/room-service.js';" },
    { filename: source('channels/oembed-route.ts'), code: "import { x } from './channel-service.js';" },
    { filename: source('app.ts'), code: "import { x } from './rooms/routes.js';" },
  ],
  invalid: [
    {
      filename: source('rooms/room-hub.ts'),
      code: "import { x } from '../streaming/broadcast-service.js';",
      errors: [{ messageId: 'loop' }],
    },
    {
      // A loop once found in the tree: streaming's oEmbed reading channels, which plan broadcasts in streaming.
      filename: source('streaming/viewers/oembed-route.ts'),
      code: "import { x } from '../../channels/channel-service.js';",
      errors: [{ messageId: 'loop' }],
    },
  ],
});
