import { parseArgs } from 'node:util';
import { loadConfig, type AppConfig } from '../env.js';
import { backup, restore } from './backup.js';
import { checkedEmail, checkedUsername, createAdmin, disableUser, resetPassword } from './account-commands.js';
import { DatabaseInUseError, openCliContext } from './cli-context.js';
import { runHealth } from './health.js';
import { readNewPassword, UsageError } from './password-input.js';

/** The operator's command line (ADR 026): the server's configuration, the server's account code. */
interface Command {
  summary: string;
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; help: string }>;
  /** Names of the positional arguments it takes, all required. */
  positionals?: string[];
  run(config: AppConfig, values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<number>;
}

const PASSWORD_STDIN = {
  type: 'boolean',
  help: 'read the password from the first line of stdin (also when stdin is not a terminal); otherwise it is asked twice without echo',
} as const;

const COMMANDS: Record<string, Command> = {
  'create-admin': {
    summary: 'create a confirmed administrator (or make an existing account one, with a new password)',
    usage: 'meetcast create-admin --email <address> --username <name> [--password-stdin]',
    options: {
      email: { type: 'string', help: 'the sign-in address' },
      username: { type: 'string', help: 'the name shown to others (2-40 characters)' },
      'password-stdin': PASSWORD_STDIN,
    },
    run: async (config, values) => {
      const email = checkedEmail(values.email as string | undefined);
      const username = checkedUsername(values.username as string | undefined);
      const password = await readNewPassword({ fromStdin: values['password-stdin'] === true });
      return withContext(config, (context) => createAdmin(context, { email, username, password }));
    },
  },
  'reset-password': {
    summary: "set an account's password; its sessions and tokens end",
    usage: 'meetcast reset-password --email <address> [--password-stdin]',
    options: { email: { type: 'string', help: 'the account' }, 'password-stdin': PASSWORD_STDIN },
    run: async (config, values) => {
      const email = checkedEmail(values.email as string | undefined);
      const password = await readNewPassword({ fromStdin: values['password-stdin'] === true });
      return withContext(config, (context) => resetPassword(context, { email, password }));
    },
  },
  'disable-user': {
    summary: 'disable an account: sign-in is refused and its sessions end',
    usage: 'meetcast disable-user --email <address>',
    options: { email: { type: 'string', help: 'the account' } },
    run: async (config, values) => {
      const email = checkedEmail(values.email as string | undefined);
      return withContext(config, (context) => disableUser(context, { email }));
    },
  },
  health: {
    summary: 'check the database, Redis, Janus, TURN, ffmpeg, Chromium, composer slots and disk; exit 1 if any fails',
    usage: 'meetcast health',
    options: {},
    run: async (config) => ((await runHealth(config, (line) => process.stdout.write(`${line}\n`))) ? 0 : 1),
  },
  backup: {
    summary: 'write the embedded database (server stopped), uploads, recordings and the secrets key to a .tar.gz',
    usage: 'meetcast backup <file>',
    options: {},
    positionals: ['file'],
    run: async (config, _values, [file]) => printed(await backup(config, file!)),
  },
  restore: {
    summary: 'restore a backup into an empty DATA_DIR (server stopped)',
    usage: 'meetcast restore <file>',
    options: {},
    positionals: ['file'],
    run: async (config, _values, [file]) => printed(await restore(config, file!)),
  },
};

function printed(line: string) {
  process.stdout.write(`${line}\n`);
  return 0;
}

const HELP_OPTION = { type: 'boolean', short: 'h' } as const;

function generalUsage() {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'Usage: meetcast <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    '',
    'Options:',
    '  -h, --help  show this help, or a command\'s with "meetcast <command> --help"',
    '',
    'It reads the same environment as the server (DATABASE_URL or DATA_DIR, REDIS_URL, JANUS_URL, ...).',
    'Exit codes: 0 done, 1 failed, 2 wrong usage.',
  ].join('\n');
}

function commandUsage(command: Command) {
  const lines = Object.entries(command.options).map(([name, option]) => {
    const flag = option.type === 'string' ? `--${name} <value>` : `--${name}`;
    return `  ${flag.padEnd(26)}  ${option.help}`;
  });
  return [
    `Usage: ${command.usage}`,
    '',
    command.summary,
    '',
    'Options:',
    ...lines,
    `  ${'-h, --help'.padEnd(26)}  show this help`,
  ].join('\n');
}

async function withContext(
  config: AppConfig,
  action: (context: Awaited<ReturnType<typeof openCliContext>>) => Promise<string>,
) {
  const context = await openCliContext(config);
  try {
    process.stdout.write(`${await action(context)}\n`);
    if (config.redisUrl && context.redis?.status !== 'ready') {
      process.stderr.write('warning: Redis did not answer; running servers drop their cached sessions within 10 s\n');
    }
    return 0;
  } finally {
    await context.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const stream = name === undefined ? process.stderr : process.stdout;
    stream.write(`${generalUsage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`meetcast: unknown command '${name}'\n\n${generalUsage()}\n`);
    return 2;
  }
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    const parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: HELP_OPTION },
      strict: true,
      allowPositionals: (command.positionals?.length ?? 0) > 0,
    });
    values = parsed.values;
    positionals = parsed.positionals;
    const expected = command.positionals?.length ?? 0;
    if (!values.help && positionals.length !== expected) {
      throw new Error(`expected ${command.positionals?.map((name) => `<${name}>`).join(' ') ?? 'no argument'}`);
    }
  } catch (error) {
    process.stderr.write(
      `meetcast ${name}: ${error instanceof Error ? error.message : String(error)}\n\n${commandUsage(command)}\n`,
    );
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${commandUsage(command)}\n`);
    return 0;
  }
  try {
    return await command.run(loadConfig(), values, positionals);
  } catch (error) {
    const known = error instanceof UsageError || error instanceof DatabaseInUseError;
    process.stderr.write(
      `meetcast ${name}: ${known ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 1;
  }
}

// Run directly (`node --import tsx apps/server/src/cli/main.ts ...`, or the `meetcast` bin).
process.exitCode = await main(process.argv.slice(2));
