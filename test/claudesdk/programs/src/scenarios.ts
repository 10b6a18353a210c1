// The Claude Agent SDK programs of test/claudesdk: each scenario is an ordinary
// query() program, run once with Claude Code's executable and once with
// toolpipe-claude's (SDK_EXECUTABLE), against the same scripted fake model.
// Every SDK message is printed as one JSON line {"kind":"message","message":…};
// what the program's callbacks saw as {"kind":"can_use_tool"|"hook"|"mcp_call",…};
// a failure as {"kind":"error","error":…} (exit status 1).
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createSdkMcpServer,
  query,
  tool,
  type Options,
  type SDKMessage,
  type SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";

const executable = process.env.SDK_EXECUTABLE!;
const cwd = process.env.SDK_CWD!;

function emit(kind: string, fields: Record<string, unknown>): void {
  process.stdout.write(JSON.stringify({ kind, ...fields }) + "\n");
}

function base(extra: Partial<Options> = {}): Options {
  return {
    pathToClaudeCodeExecutable: executable,
    cwd,
    env: { ...process.env },
    stderr: (data: string) => process.stderr.write(data),
    ...extra,
  };
}

// run prints every message of one query and returns the session id it reported.
async function run(prompt: string | AsyncIterable<SDKUserMessage>, options: Options,
  onMessage?: (m: SDKMessage, q: ReturnType<typeof query>) => void): Promise<string> {
  const q = query({ prompt, options });
  let session = "";
  try {
    for await (const m of q) {
      emit("message", { message: m });
      if ("session_id" in m && typeof m.session_id === "string") session = m.session_id;
      onMessage?.(m, q);
    }
  } catch (e) {
    // An error result (the executable exits with status 1 after it) ends the
    // query with this error; the program goes on.
    if (!String(e).includes("returned an error result")) throw e;
    emit("error_result", { error: String(e) });
  }
  return session;
}

// untilFile waits until a command of the scenario has created path: the program
// acts on what the tool did, not after a guessed delay.
async function untilFile(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((r) => setTimeout(r, 20));
}

function userMessage(text: string): SDKUserMessage {
  return { type: "user", message: { role: "user", content: text }, parent_tool_use_id: null };
}

const scenarios: Record<string, () => Promise<void>> = {
  // The model answers in text.
  async plain() {
    await run("Say hello.", base());
  },

  // Two Reads in one assistant message, run in parallel, results in order.
  async "parallel-reads"() {
    await run("Read a.txt and b.txt.", base());
  },

  // canUseTool refuses a Bash call; the command must not run.
  async denied() {
    await run("Create made.txt.", base({
      canUseTool: async (name, input) => {
        emit("can_use_tool", { tool: name, input });
        return { behavior: "deny", message: "Bash is not allowed in this test." };
      },
    }));
  },

  // No canUseTool: a call that would ask is refused, and does not run.
  async "no-can-use-tool"() {
    await run("Create made.txt.", base());
  },

  // canUseTool allows a Bash call.
  async allowed() {
    await run("Create made.txt.", base({
      canUseTool: async (name, input) => {
        emit("can_use_tool", { tool: name, input });
        return { behavior: "allow", updatedInput: input };
      },
    }));
  },

  // A PreToolUse hook registered in code blocks the Bash call.
  async "hook-blocks"() {
    await run("Create made.txt.", base({
      hooks: {
        PreToolUse: [{
          matcher: "Bash",
          hooks: [async (input) => {
            const i = input as { hook_event_name: string; tool_name: string; tool_input: unknown };
            emit("hook", { event: i.hook_event_name, tool: i.tool_name, input: i.tool_input });
            return {
              hookSpecificOutput: {
                hookEventName: "PreToolUse",
                permissionDecision: "deny",
                permissionDecisionReason: "Blocked by the test's hook.",
              },
            };
          }],
        }],
      },
    }));
  },

  // A tool of an in-process SDK MCP server: it runs here, in the SDK's process.
  async "sdk-mcp"() {
    const calc = createSdkMcpServer({
      name: "calc",
      version: "1.0.0",
      tools: [tool("add", "Adds two numbers.", { a: z.number(), b: z.number() }, async (args) => {
        emit("mcp_call", { tool: "add", args });
        return { content: [{ type: "text", text: String(args.a + args.b) }] };
      })],
    });
    await run("Add 2 and 3.", base({
      mcpServers: { calc },
      canUseTool: async (name, input) => {
        emit("can_use_tool", { tool: name, input });
        return { behavior: "allow", updatedInput: input };
      },
    }));
  },

  // includePartialMessages: the stream_event partials of each assistant message.
  async partial() {
    await run("Read a.txt.", base({ includePartialMessages: true }));
  },

  // maxTurns: 1 and a model that wants a second turn.
  async "max-turns"() {
    await run("Read a.txt.", base({ maxTurns: 1 }));
  },

  // The program interrupts while a Bash command runs.
  async interrupt() {
    let interrupted = false;
    await run("Run the slow command.", base({
      canUseTool: async (name, input) => ({ behavior: "allow", updatedInput: input }),
    }), (m, q) => {
      if (!interrupted && m.type === "assistant" && m.message.content.some((b) => b.type === "tool_use")) {
        interrupted = true;
        untilFile(join(cwd, "started")).then(() => q.interrupt()).then(() => emit("interrupted", {}));
      }
    });
  },

  // Two user messages over one process (streaming input): the second is sent once
  // the first has its result.
  async streaming() {
    let answered!: () => void;
    const first = new Promise<void>((r) => { answered = r; });
    async function* messages(): AsyncGenerator<SDKUserMessage> {
      yield userMessage("First question.");
      await first;
      yield userMessage("Second question.");
    }
    await run(messages(), base(), (m) => {
      if (m.type === "result") answered();
    });
  },

  // A second query resumes the first one's session.
  async resume() {
    const session = await run("Remember the word apple.", base());
    emit("resuming", { session });
    await run("Which word?", base({ resume: session }));
  },

  // toolpipe only: the executable is killed (SIGKILL, by the test) while a Bash
  // command runs; the program resumes the session, which must finish.
  async "kill-resume"() {
    let session = "";
    try {
      session = await run("Run the side effect.", base({
        canUseTool: async (name, input) => ({ behavior: "allow", updatedInput: input }),
      }), (m) => {
        if (m.type === "system" && m.subtype === "init") writeFileSync(join(cwd, "..", "session-id"), m.session_id);
      });
      emit("error", { error: "the first query ended without being killed" });
      process.exit(1);
    } catch (e) {
      emit("killed", { error: String(e) });
    }
    if (!session) {
      const { readFileSync } = await import("node:fs");
      session = readFileSync(join(cwd, "..", "session-id"), "utf8");
    }
    await run("Go on.", base({
      resume: session,
      canUseTool: async (name, input) => ({ behavior: "allow", updatedInput: input }),
    }));
  },
};

const name = process.argv[2];
const scenario = scenarios[name];
if (!scenario) {
  emit("error", { error: `no scenario ${name}; known: ${Object.keys(scenarios).join(", ")}` });
  process.exit(2);
}
scenario().then(() => process.exit(0), (e) => {
  emit("error", { error: String(e?.stack ?? e) });
  process.exit(1);
});
