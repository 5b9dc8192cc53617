import type { Rule } from 'eslint';

export declare const folderLoops: Rule.RuleModule;
