// start-turn runs one toolpipe Turn from TypeScript: it starts the Turn workflow on a
// running toolpipe worker (for instance `starter dev`), streams the tool_use blocks of
// an assistant message into it one update at a time, collects the results as they are
// yielded, and prints the tool_result user message, exactly as `starter run --stream`
// does. The wire contract it uses is docs/CROSS-LANGUAGE.md.
//
//   node dist/start-turn.js --address 127.0.0.1:7233 --workdir /path message.json
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';

/** One tool_use block of an assistant message. */
interface ToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** One tool_result block, as the Turn yields it. */
interface ToolResult {
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** The Turn's start input (workflows.TurnInput). */
interface TurnInput {
  session_id: string;
  workdir: string;
  blocks?: { id: string; name: string; input: unknown }[];
  close_intake?: boolean;
  context: { read_files?: string[] };
  options: { heartbeat_timeout?: number; safe_attempts?: number };
}

/** The Turn's result (workflows.TurnResult), in part. */
interface TurnResult {
  results: ToolResult[];
  context: { read_files?: string[] };
  stop?: boolean;
  stop_reason?: string;
}

/** The Collect update's answer (workflows.CollectResponse). */
interface CollectResponse {
  results: ToolResult[] | null;
  next: number;
  done: boolean;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      address: { type: 'string', default: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' },
      namespace: { type: 'string', default: 'default' },
      'task-queue': { type: 'string', default: 'toolpipe' },
      session: { type: 'string', default: 'default' },
      workdir: { type: 'string', default: process.cwd() },
    },
    allowPositionals: true,
  });
  if (positionals.length !== 1) {
    console.error('usage: start-turn [--address A] [--workdir DIR] [--session S] MESSAGE.json');
    process.exit(2);
  }
  const message = JSON.parse(readFileSync(positionals[0], 'utf8'));
  if (message?.role !== 'assistant' || !Array.isArray(message.content)) {
    console.error(`${positionals[0]}: not an assistant message (want {"role":"assistant","content":[…]})`);
    process.exit(2);
  }
  const blocks: ToolUse[] = message.content.filter((b: { type?: string }) => b.type === 'tool_use');

  const connection = await Connection.connect({ address: values.address });
  const client = new Client({ connection, namespace: values.namespace });

  // The same message gets the same id, so running this again attaches to the turn
  // instead of running its tools twice (the CLI's ids are its own; any stable id works).
  const digest = createHash('sha256').update(JSON.stringify(blocks)).digest('hex').slice(0, 16);
  const workflowId = `turn-ts-${values.session}-${digest}`;
  const input: TurnInput = {
    session_id: values.session!,
    workdir: values.workdir!,
    blocks: blocks.map((b) => ({ id: b.id, name: b.name, input: b.input })),
    close_intake: true, // the whole message is here; a streaming client sends AddBlocks then CloseIntake
    context: {},
    options: {},
  };

  let handle;
  try {
    handle = await client.workflow.start('toolpipe.Turn', {
      taskQueue: values['task-queue']!,
      workflowId,
      args: [input],
      // A running turn of this id is attached to; a finished one is not started again.
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    handle = client.workflow.getHandle(workflowId); // finished: its result is final
  }
  console.error(`turn ${workflowId}`);

  // Collect results as they are yielded, in arrival order, while the turn runs. A
  // completed workflow answers no update, so once the turn is over its result is read.
  let results: ToolResult[] = [];
  try {
    for (let from = 0; ; ) {
      const r = await handle.executeUpdate<CollectResponse, [{ from: number }]>('Collect', { args: [{ from }] });
      for (const res of r.results ?? []) {
        results.push(res);
        console.error(`  <- ${res.tool_use_id}${res.is_error ? ' (error)' : ''}`);
      }
      from = r.next;
      if (r.done) break;
    }
  } catch (err) {
    // The turn completed between two updates (or before the first): its result holds
    // every tool_result in arrival order, the ones collected so far included.
    results = ((await handle.result()) as TurnResult).results;
  }
  const content = results.map((r) => ({ type: 'tool_result', ...r }));
  console.log(JSON.stringify({ role: 'user', content }));
  await connection.close();
}

main().catch((err) => {
  console.error(`start-turn: ${err}`);
  process.exit(1);
});
