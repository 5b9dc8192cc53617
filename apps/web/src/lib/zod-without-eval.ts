import { config } from 'zod';

// zod probes for `new Function` support on its first parse to compile faster validators; our
// Content-Security-Policy forbids eval, so the probe was blocked (and reported) on every page.
config({ jitless: true });
