import type { Rule } from 'eslint';

export declare const SERVER_LAYERS: { name: string; entries: string[] }[];
export declare const serverLayers: Rule.RuleModule;
