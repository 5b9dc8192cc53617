import { resolve } from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import { serverLayers } from './server-layers.js';

const source = (path: string) => resolve(import.meta.dirname, '../../apps/server/src', path);

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

tester.run('server-layers', serverLayers, {
  valid: [
    { filename: source('rooms/room-hub.ts'), code: "import { x } from '../media/media-service.js';" },
    { filename: source('streaming/broadcast-service.ts'), code: "import { x } from '../rooms/grants.js';" },
    { filename: source('admin/routes.ts'), code: "import { x } from '../channels/channel-service.js';" },
    { filename: source('env.ts'), code: "import { x } from './http/client-address.js';" },
    { filename: source('platform/limits.ts'), code: "import { x } from '../http/app-error.js';" },
    { filename: source('rooms/room-hub.ts'), code: "import { x } from '../context.js';" },
    { filename: source('env.test.ts'), code: "import { x } from './env.js';" },
    { filename: source('app.ts'), code: "import { x } from './admin/routes.js';" },
    { filename: source('accounts/routes.ts'), code: "import { z } from 'zod';" },
  ],
  invalid: [
    {
      filename: source('media/janus-proxy.ts'),
      code: "import { x } from '../rooms/grants.js';",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: source('env.ts'),
      code: "import { parse } from './streaming/secrets-box.js';",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: source('channels/routes.ts'),
      code: "export { x } from '../admin/audit.js';",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: source('http/health.ts'),
      code: "const later = () => import('../accounts/session-store.js');",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: source('http/client-address.ts'),
      code: "import { AppConfig } from '../env.js';",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: source('http/error-handler.ts'),
      code: "import { x } from '../platform/limits.js';",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: source('accounts/authenticate.ts'),
      code: "import { AppContext } from '../context.js';",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: source('media/janus-proxy.ts'),
      code: "import { AppContext } from '../context.js';",
      errors: [{ messageId: 'upward' }],
    },
    { filename: source('billing/routes.ts'), code: 'export const x = 1;', errors: [{ messageId: 'unplaced' }] },
  ],
});
