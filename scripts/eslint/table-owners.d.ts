import type { Rule } from 'eslint';

export declare const tableOwners: Rule.RuleModule;
