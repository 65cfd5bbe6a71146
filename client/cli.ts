/**
 * `npx paykit`: the package's command (package.json's `bin`, built into dist/cli.js).
 *
 *     npx paykit listen --forward-to http://localhost:3000/webhooks
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { PaykitClient } from './client.ts';
import { listen, type Forwarded } from './listen.ts';

const USAGE = `Usage: paykit listen --forward-to <url> [options]

Forwards your sandbox client's events, as they are written, to <url>, signed as real deliveries are (Standard
Webhooks headers). Your registered webhook URL keeps receiving every event as before.

Options:
  --forward-to <url>      where to post each event (required), e.g. http://localhost:3000/webhooks
  --base-url <url>        the Paykit service (default $PAYKIT_BASE_URL, else http://localhost:4010)
  --client-id <id>        your client id (default $PAYKIT_CLIENT_ID)
  --secret-key <key>      your secret key (default $PAYKIT_CLIENT_SECRET)
  --webhook-secret <s>    the whsec_… secret to sign with (default $PAYKIT_WEBHOOK_SECRET, else your endpoint's,
                          else a new one, printed)
  --after <cursor>        forward what was written since a cursor an earlier listen printed, then go on
  -h, --help              this text
`;

/** Runs the command with `argv` (without node and the script); resolves with the exit code when it ends. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, out = console): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'forward-to': { type: 'string' },
        'base-url': { type: 'string' },
        'client-id': { type: 'string' },
        'secret-key': { type: 'string' },
        'webhook-secret': { type: 'string' },
        after: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    out.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out.log(USAGE);
    return 0;
  }
  if (positionals[0] !== 'listen' || positionals.length > 1) {
    out.error(positionals.length ? `Unknown command: ${positionals.join(' ')}\n\n${USAGE}` : USAGE);
    return 2;
  }
  const forwardTo = values['forward-to'];
  const clientId = values['client-id'] ?? env['PAYKIT_CLIENT_ID'];
  const secretKey = values['secret-key'] ?? env['PAYKIT_CLIENT_SECRET'];
  const missing = [
    [forwardTo, '--forward-to'],
    [clientId, '--client-id or PAYKIT_CLIENT_ID'],
    [secretKey, '--secret-key or PAYKIT_CLIENT_SECRET'],
  ]
    .filter(([value]) => !value)
    .map(([, name]) => name);
  if (missing.length) {
    out.error(`Missing ${missing.join(', ')}.\n\n${USAGE}`);
    return 2;
  }
  try {
    new URL(forwardTo!);
  } catch {
    out.error(
      `--forward-to must be an absolute URL such as http://localhost:3000/webhooks, not ${JSON.stringify(forwardTo)}.`,
    );
    return 2;
  }

  let listener;
  try {
    const paykit = new PaykitClient({
      clientId: clientId!,
      secretKey: secretKey!,
      baseUrl: values['base-url'] ?? env['PAYKIT_BASE_URL'],
      environment: 'sandbox',
    });
    listener = await listen(paykit, {
      forwardTo: forwardTo!,
      secret: values['webhook-secret'] ?? env['PAYKIT_WEBHOOK_SECRET'],
      after: values.after,
      onForward: ({ event, status, error }: Forwarded) =>
        out.log(
          `${new Date().toISOString()}  ${event.event_type.padEnd(19)} ${event.event_id}  → ${error ? `not delivered: ${error}` : status}`,
        ),
      onReconnect: (error, retryInMs) =>
        out.error(
          `Lost the service (${(error as Error).message}); reading again in ${retryInMs / 1000} s, from where it was.`,
        ),
    });
    const source = {
      endpoint: "your endpoint's signing secret",
      given: 'the secret given',
      new: 'a new secret: you registered no endpoint; verify with it',
    }[listener.secretSource];
    out.log(
      `Forwarding ${clientId}'s events from ${paykit.baseUrl} to ${forwardTo}, signed with ${listener.secretSource === 'endpoint' ? 'whsec_…' : listener.secret} (${source}). Ctrl-C stops.`,
    );
  } catch (error) {
    out.error(`paykit listen: ${(error as Error).message}`);
    return 1;
  }

  const stop = () => void listener.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await listener.done;
    out.log(`Stopped. To go on from here: --after ${listener.cursor}`);
    return 0;
  } catch (error) {
    out.error(`paykit listen: ${(error as Error).message}`);
    return 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

// Run as a command (the package's bin through its link in node_modules/.bin, or `node client/cli.ts`), not when imported.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href)
  process.exitCode = await main(process.argv.slice(2));
