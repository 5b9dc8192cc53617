#!/usr/bin/env node
// The `meetcast` bin: the command line is TypeScript, run as the server is (`node --import tsx`).
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
