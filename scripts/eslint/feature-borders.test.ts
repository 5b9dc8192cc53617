import { resolve } from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import { featureBorders } from './feature-borders.js';

const source = (path: string) => resolve(import.meta.dirname, '../../apps/web/src', path);

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

tester.run('feature-borders', featureBorders, {
  valid: [
    { filename: source('features/calendar/calendar-page.tsx'), code: "import { meetingsApi } from '../meetings';" },
    { filename: source('features/calendar/calendar-page.tsx'), code: "import { x } from '../meetings/index';" },
    { filename: source('features/calendar/calendar-page.tsx'), code: "import { x } from './calendar-view';" },
    { filename: source('features/room/media/room-media.ts'), code: "import { x } from '../room-state';" },
    { filename: source('features/calendar/event-dialog.tsx'), code: "import { x } from '../../lib/zoned-time';" },
    { filename: source('app/routes.ts'), code: "const page = () => import('../features/room/room-page');" },
    { filename: source('components/dialog.tsx'), code: "import { cn } from '../lib/cn';" },
    { filename: source('i18n/i18n.ts'), code: "import { setApiWording } from '../lib/api';" },
    { filename: source('lib/api.ts'), code: "import { readSessionToken } from './session-cookie';" },
  ],
  invalid: [
    {
      filename: source('features/calendar/event-dialog.tsx'),
      code: "import { toWall } from '../meetings/zoned-time';",
      errors: [{ messageId: 'deep' }],
    },
    {
      filename: source('features/room/media/room-media.ts'),
      code: "import { useSession } from '../../session/session-context';",
      errors: [{ messageId: 'deep' }],
    },
    {
      filename: source('features/profile/profile-page.tsx'),
      code: "export { LANGUAGE_NAMES } from '../shell/language-picker';",
      errors: [{ messageId: 'deep' }],
    },
    {
      filename: source('features/dashboard/dashboard-page.tsx'),
      code: "const chart = () => import('../meetings/meeting-card');",
      errors: [{ messageId: 'deep' }],
    },
    {
      filename: source('components/date-time-field.tsx'),
      code: "import { useSession } from '../features/session';",
      errors: [{ messageId: 'shared' }],
    },
    {
      filename: source('lib/api.ts'),
      code: "import i18n from '../i18n/i18n';",
      errors: [{ messageId: 'ground' }],
    },
    {
      filename: source('lib/form-toast.ts'),
      code: "import { Button } from '../components/button';",
      errors: [{ messageId: 'ground' }],
    },
    {
      filename: source('lib/api.ts'),
      code: "const session = () => import('../features/session');",
      errors: [{ messageId: 'ground' }],
    },
  ],
});
