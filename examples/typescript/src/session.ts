// session rewinds and forks toolpipe agent sessions from TypeScript, as `starter agent
// rewind` and `starter agent fork` (and the Go API's Session.Rewind and Client.Fork)
// do, over the wire contract of docs/CROSS-LANGUAGE.md:
//
//   node dist/session.js rewind S --to N|LATEST [--after] [--scope both|conversation|code] [--workdir DIR]
//   node dist/session.js fork S --at N [--after] --session S2 --workdir DIR [--scope both|conversation]
//
// A rewind is the session's Rewind update, sent with the start of a run that does only
// that when the session is not running (update-with-start), so every rewind is in the
// session's history with who asked. A fork is a new Session workflow whose input names
// the parent and the point; its memo (and, where the namespace has it, the
// ToolpipeParentSession search attribute) links it to the parent.
// Exit codes: 0 done, 2 bad input or a refusal (a turn the session does not have, a
// fork onto a session that exists, a fork into a directory with files), 1 otherwise.
import { userInfo, hostname } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  Client,
  Connection,
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  ApplicationFailure,
} from '@temporalio/client';

/** conversation.RewindTarget: a turn, before it or after its results, or LATEST. */
interface RewindTarget {
  turn?: number;
  after?: boolean;
  latest?: boolean;
}

/** workflows.RewindResult, in part. */
interface RewindResult {
  messages: number;
  dropped: number;
  mark?: { turn: number };
  interrupted?: boolean;
  by: string;
  at: string;
  code?: { checkpoint?: string; undo?: string; written: number; removed: number; note?: string };
}

/** workflows.SessionInput, the part a rewind's own run takes from the session's last run. */
interface SessionInput {
  session_id: string;
  workdir?: string;
  place?: boolean;
  checkpoints?: boolean;
  options?: { turn?: unknown };
}

/** workflows.SessionResult, in part. */
interface SessionResult {
  session_id: string;
  stop_reason: string;
  workspace?: { checkpoint?: string; written: number };
}

// The names the workflows declare (contract/names.go, workflows/session_rewind.go).
const sessionWorkflow = 'toolpipe.Session';
const rewindUpdate = 'Rewind';
const refusals = new Set(['BadRewind', 'SessionExists']);

/** usage is a refusal of the command line: exit 2 with what to do. */
class Usage extends Error {}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      address: { type: 'string', default: process.env.TEMPORAL_ADDRESS || '127.0.0.1:7233' },
      namespace: { type: 'string', default: 'default' },
      'task-queue': { type: 'string', default: 'toolpipe' },
      to: { type: 'string' },
      at: { type: 'string' },
      after: { type: 'boolean', default: false },
      scope: { type: 'string', default: 'both' },
      session: { type: 'string' },
      // A rewind's default is the session's own working directory; a fork's, this one.
      workdir: { type: 'string' },
      by: { type: 'string', default: `${userInfo().username}@${hostname()}` },
    },
    allowPositionals: true,
  });
  const [verb, parent] = positionals;
  if (positionals.length !== 2 || (verb !== 'rewind' && verb !== 'fork')) {
    throw new Usage('usage: session rewind S --to N|LATEST … | session fork S --at N --session S2 --workdir DIR');
  }
  const connection = await Connection.connect({ address: values.address });
  try {
    const client = new Client({ connection, namespace: values.namespace });
    if (verb === 'rewind') {
      await rewind(client, parent, values);
    } else {
      await fork(client, connection, parent, values);
    }
  } finally {
    await connection.close();
  }
}

type Flags = { [k: string]: string | boolean | undefined };

async function rewind(client: Client, session: string, f: Flags): Promise<void> {
  const scope = f.scope as string;
  if (!['both', 'conversation', 'code'].includes(scope)) {
    throw new Usage(`--scope ${scope}: use both, conversation or code`);
  }
  let target: RewindTarget;
  if (f.to === 'LATEST') {
    target = { latest: true };
  } else {
    const n = Number(f.to);
    if (!Number.isInteger(n) || n < 1) {
      throw new Usage(`--to ${f.to ?? '(missing)'}: give a turn number from 1 (\`starter agent history\` lists them) or LATEST`);
    }
    target = { turn: n, after: f.after as boolean };
  }
  const workflowId = `session-${session}`;
  // The run that serves the rewind of a session that is not running restores files
  // where the session works and on the host it is placed on: both come from its
  // last run (as the Go API's rewind_control.go does).
  let workdir = f.workdir as string | undefined;
  const last = await lastRunInput(client, workflowId, workdir === undefined);
  if (last?.workdir && !workdir) {
    workdir = last.workdir;
  } else if (last?.workdir && workdir && scope !== 'conversation' && resolve(workdir) !== resolve(last.workdir)) {
    throw new Usage(`session ${session} works in ${last.workdir}, not ${workdir}: a rewind of its code writes and removes files in its own directory (give --workdir ${last.workdir}, or none)`);
  }
  const start = new WithStartWorkflowOperation(sessionWorkflow, {
    workflowId,
    taskQueue: f['task-queue'] as string,
    args: [{
      session_id: session, workdir: workdir ?? process.cwd(), control: { rewind: true },
      place: last?.place, checkpoints: last?.checkpoints, options: { turn: last?.options?.turn ?? {} },
    }],
    // A running session gets the update; a closed one a run that does only the rewind.
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    staticSummary: `agent: rewind session ${session}`,
  });
  const r = await client.workflow.executeUpdateWithStart<any, RewindResult, [unknown]>(rewindUpdate, {
    args: [{ target, by: f.by, scope: scope === 'both' ? '' : scope }],
    startWorkflowOperation: start,
  });
  console.log(JSON.stringify(r));
  const to = r.mark ? `before turn ${r.mark.turn}` : 'LATEST';
  console.error(`rewound session ${session} to ${to}: ${r.messages} messages (${r.dropped} dropped)` +
    (r.code ? `, workspace ${r.code.checkpoint || r.code.note || 'unchanged'} (${r.code.written} written, ${r.code.removed} removed)` : ''));
}

/** The input of the session's latest run, running or closed; undefined when it never ran. */
async function lastRunInput(client: Client, workflowId: string, needWorkdir: boolean): Promise<SessionInput | undefined> {
  let history;
  try {
    history = await client.workflow.getHandle(workflowId).fetchHistory();
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) {
      return undefined;
    }
    throw e;
  }
  const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  if (!payload) {
    return undefined;
  }
  const input = client.options.loadedDataConverter.payloadConverter.fromPayload<SessionInput>(payload);
  if (typeof input?.session_id !== 'string') {
    // An input over 128 KiB is in the blob store (a reference here): without the
    // directory given, say so rather than guess it.
    if (!needWorkdir) {
      return undefined;
    }
    throw new Usage(`the last run of ${workflowId} keeps its input in the blob store: give --workdir (the session's working directory)`);
  }
  return input;
}

async function fork(client: Client, connection: Connection, parent: string, f: Flags): Promise<void> {
  const at = Number(f.at);
  if (!Number.isInteger(at) || at < 1) {
    throw new Usage(`--at ${f.at ?? '(missing)'}: give the turn to fork at, from 1`);
  }
  const child = f.session as string | undefined;
  if (!child || child === parent) {
    throw new Usage('--session: the fork needs its own session id (rewind a session to go back in it)');
  }
  const scope = f.scope as string;
  if (scope !== 'both' && scope !== 'conversation') {
    throw new Usage(`--scope ${scope}: a fork takes the conversation, with the files (both) or without (conversation)`);
  }
  const namespace = client.options.namespace;
  // Upserting an attribute the namespace lacks would fail the start: ask first.
  const attrs = await connection.operatorService.listSearchAttributes({ namespace }).catch(() => undefined);
  const linked = attrs?.customAttributes?.['ToolpipeParentSession'] !== undefined;
  let handle;
  try {
    handle = await client.workflow.start(sessionWorkflow, {
      workflowId: `session-${child}`,
      taskQueue: f['task-queue'] as string,
      args: [{
        session_id: child,
        workdir: (f.workdir as string | undefined) ?? process.cwd(),
        control: { fork: { parent, target: { turn: at, after: f.after }, scope: scope === 'both' ? '' : scope } },
      }],
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      staticSummary: `agent: fork of ${parent} at turn ${at}`,
      memo: { parent_session: parent, forked_at: at },
      ...(linked ? { searchAttributes: { ToolpipeParentSession: [parent], ToolpipeSessionID: [child] } } : {}),
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) {
      throw new Usage(`session ${child} is running: fork onto a new session id`);
    }
    throw err;
  }
  const r = (await handle.result()) as SessionResult;
  console.log(JSON.stringify({ session: child, parent, at, workspace: r.workspace ?? null }));
  console.error(`forked ${parent} at turn ${at} as ${child}` +
    (r.workspace ? `: ${r.workspace.written} files from checkpoint ${r.workspace.checkpoint}` : ''));
}

/** refusal is the typed failure a rewind or fork was refused with, if it was one
 * (it may come wrapped: the update's or the workflow's failure, an activity's). */
function refusal(err: unknown): string | undefined {
  for (let e: unknown = err; e instanceof Error; e = (e as { cause?: unknown }).cause) {
    if (e instanceof ApplicationFailure && e.type && refusals.has(e.type)) {
      return e.message;
    }
  }
  return undefined;
}

main().catch((err) => {
  const why = err instanceof Usage ? err.message : refusal(err);
  console.error(`session: ${why ?? err}`);
  process.exit(why !== undefined ? 2 : 1);
});
