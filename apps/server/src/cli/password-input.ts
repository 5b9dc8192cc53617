import { PasswordSchema } from '@meetcast/contracts';

/**
 * The new password of `create-admin` and `reset-password`: never from the command line, which other
 * users of the machine can read in `ps`. Piped in (`--password-stdin`, or any stdin that is not a
 * terminal) it is the first line; at a terminal it is typed twice without echo.
 */
export async function readNewPassword(options: { fromStdin: boolean }): Promise<string> {
  const password =
    options.fromStdin || !process.stdin.isTTY ? await firstLineOfStdin() : await promptTwiceWithoutEcho();
  const checked = PasswordSchema.safeParse(password);
  if (!checked.success) throw new UsageError(`password: ${checked.error.issues[0]?.message ?? 'invalid'}`);
  return checked.data;
}

/** A mistake in what the operator gave (exit 2 for the command line itself, 1 for its values). */
export class UsageError extends Error {}

async function firstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return (Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '').toString();
}

async function promptTwiceWithoutEcho(): Promise<string> {
  const first = await promptWithoutEcho('New password: ');
  const second = await promptWithoutEcho('Repeat it: ');
  if (first !== second) throw new UsageError('the two passwords differ');
  return first;
}

function promptWithoutEcho(question: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(question);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  let typed = '';
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.removeListener('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (text: string) => {
      for (const character of text) {
        if (character === '\r' || character === '\n') return finish();
        if (character === '\u0003') return finish(new UsageError('cancelled'));
        if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1);
        else typed += character;
      }
    };
    input.on('data', onData);
  });
}
