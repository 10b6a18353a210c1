package workflows

// Every change id the workflows pass to workflow.GetVersion, with what it changed.
// A workflow recorded before a change replays its old branch (GetVersion returns
// DefaultVersion where the history has no marker); one that ran the new branch
// has the marker. Each change has a recorded history under testdata/ on each side
// (replay_test.go, session_replay_test.go list them). A change is added here, never
// edited: its id and meaning are in histories. Where the id is asked matters as
// much as the id: the marker goes into history at that point, so a change is asked
// where it decides, no earlier.
const (
	// startInputFirst: blocks that an update adds while the turn starts wait until
	// the start input's blocks are tracked. Asked at the turn's start.
	startInputFirst = "start-input-first"
	// terminalStatus: a cancelled turn upserts its final ToolpipeStatus; turns
	// cancelled before it end with no upsert. Asked when the turn is cancelled.
	terminalStatus = "terminal-status"
	// endedStatus: a session that fails or is cancelled, and a turn that fails,
	// record it in ToolpipeStatus instead of keeping "running" for ever. Asked when
	// the workflow ends so.
	endedStatus = "ended-status"
	// rejectedInputAlone: a Bash call whose input is refused cancels no sibling, as
	// in Claude Code. Asked at the turn's start.
	rejectedInputAlone = "rejected-input-alone"
	// contextCompaction: a session whose conversation nears the model's window (or
	// was refused as too long) continues from a summary. Asked before a model call.
	contextCompaction = "context-compaction"
	// compactionKeepsRecent: a compaction keeps the most recent messages after the
	// summary (up to KeepShare of the window), not the summary alone.
	compactionKeepsRecent = "compaction-keeps-recent"
	// sessionStartCompact: SessionStart hooks run after a compaction.
	sessionStartCompact = "session-start-compact"
	// hookTranscript: a turn whose hooks have a transcript path writes its calls and
	// results to the transcript (Claude Code's JSONL). Asked at a call's first entry.
	hookTranscript = "hook-transcript"
	// deniedCallAlone: a call that never ran because it was denied (a hook, a rule,
	// the user) or its hook-rewritten input failed validation cancels no sibling,
	// as in Claude Code: only a Bash command that ran and failed does. Asked when
	// a call is refused.
	deniedCallAlone = "denied-call-alone"
	// interruptFailureHooks: PostToolUseFailure hooks run for a call the user
	// interrupted. Asked when an interrupted call has such hooks.
	interruptFailureHooks = "interrupt-failure-hooks"
	// customToolsRecorded: the first call naming a tool that is neither original
	// (tool.IsOriginal) nor MCP records whether the worker's registry had it, and
	// its contract (tool.Definition.Fingerprint); replays decide from the record,
	// never from the registry of the worker that replays (turn_custom.go). It
	// covers a program's own tools and the built-in tools added since (NotebookEdit):
	// a turn from before one was added recorded it unknown, and stays so.
	customToolsRecorded = "custom-tools-recorded"
	// backgroundShells: Bash with run_in_background starts a background task of
	// the turn's session, and TaskStop stops one; turns from before it refused both.
	backgroundShells = "background-shells"
	// tasksAsStreamed: Task calls start as their blocks stream (contract.StartTaskUpdate),
	// not when the model's message has ended.
	tasksAsStreamed = "tasks-start-as-streamed"
	// modelErrorEndsPrompt: a model call that failed for good (a 4xx, no API key,
	// retries used up, a stalled stream) ends the prompt with the API's message
	// instead of failing the session; the next prompt continues the conversation.
	modelErrorEndsPrompt = "model-error-ends-prompt"
	// keepArrivals: the messages that arrive while the session waits on an activity
	// that consumes the queue (UserPromptSubmit hooks, the append) are kept; before
	// it, a message sent during a hook was lost.
	keepArrivals = "keep-arrivals"
	// shutdownResult: a tool its worker's shutdown stopped reports
	// ShutdownWorkerMessage; before it, LostWorkerMessage.
	shutdownResult = "shutdown-result"
	// repairedInputs: inputs are read as Claude Code reads them
	// (tool.Definition.Repair): numbers and booleans sent as strings, integers
	// written 2.0, the parameter names models borrow. Before it such inputs were
	// refused. Asked at the turn's start.
	repairedInputs = "repaired-inputs"
	// learnsWindow: a "prompt is too long: N tokens > M maximum" refusal makes M the
	// session's window, and the compaction answering it leaves out what the summary
	// request cannot fit. Before it a session kept the window it started with.
	learnsWindow = "learn-context-window"
	// bashReadPathsChange: a read-only Bash command is confined to the working
	// directories and Read deny rules apply to the paths it reads.
	bashReadPathsChange = "bash-read-paths"
	// bashReadSymlinksChange: those paths are resolved (symbolic links, ".."), as a
	// file tool's are.
	bashReadSymlinksChange = "bash-read-symlinks"
	// bashReadTargetsChange: the paths resolved are readonly.Reads' (ls's ".", the
	// directory a pattern starts from) and the files its patterns match.
	bashReadTargetsChange = "bash-read-targets"
	// failuresShown: a turn shows its failed calls in the Web UI (issue 32 item
	// 5): a call whose result is an error is a failed activity (benign, never
	// retried; the result is its detail); a call that never became an activity (an
	// unknown tool, a refused input) is a failed RefusedCall activity under its
	// summary; the finished turn writes its calls, their states and errors to its
	// memo and sets ToolpipeFailedCalls (turn_failures.go). Turns from before it
	// completed such activities and recorded nothing more. Asked at the turn's start.
	failuresShown = "ui-shows-failures"
	// turnOnToolUse: a session starts a model call's Turn only when the reply has a
	// tool call for it (the model activity asks, contract.OpenTurnUpdate, before it hands
	// over the first block), and turns are numbered one by one (session-S/turn-1,
	// turn-2, …) instead of by message (session_turn.go). Sessions from before it
	// started every Turn before the model call and named it after the message.
	turnOnToolUse = "turn-on-tool-use"
	// scheduledWakeups: ScheduleWakeup arms a wake-up that the session sleeps on
	// (a timer) once the model has ended its turn, then wakes with its prompt
	// (session_schedulewakeup.go). Asked when a call arms or stops one; sessions
	// from before it never slept (their turns recorded the tool unknown).
	scheduledWakeups = "scheduled-wakeups"
	// askedQuestions: AskUserQuestion waits in the session for a person's Answer
	// update (or the session's QuestionTimeout) and answers the model in Claude
	// Code's words (session_askuserquestion.go). Asked when a call asks; sessions
	// from before it never asked (their turns recorded the tool unknown).
	askedQuestions = "asked-questions"
	// decodedInputs: a turn reads its inputs' strings as Claude Code 2.1.328 does
	// before the permission check and the tool see them: the \uXXXX escapes a model
	// wrote out are decoded (tool.DecodeEscapes), a path parameter loses the white
	// space around it (tool.TrimPath) and a Bash command its leading
	// `cd <working directory> && ` (tool.StripCdWorkdir). Before it they were passed
	// on as written. Asked at the turn's start, after repairedInputs.
	decodedInputs = "decoded-inputs"
	// sessionPlacement: a session that asks for placement (SessionInput.Place) is
	// put on a host with capacity and its tools go to that host's queue
	// (fleet.go). Sessions from before it, and sessions that do not ask (the
	// embedded default), record no marker and schedule no placement activity.
	sessionPlacement = "session-placement"
	// prefixedNames: the workflows schedule their activities and child workflows
	// under prefixed names (contract.Prefix: "toolpipe.Read", "toolpipe.Turn"), so
	// that a program's own can share the worker. Before it they scheduled "Read",
	// "CallModel", "Turn"; a worker with LegacyNames registers those too. Asked at
	// the workflow's start (names.go).
	prefixedNames = "prefixed-names"
	// turnCheckpoints: a session with Checkpoints (or Place) captures its workspace
	// when a run starts and after every step with a call that may change files,
	// and records them per turn (session_checkpoint.go). Asked at the first capture
	// of a run.
	turnCheckpoints = "turn-checkpoints"
	// sessionMove: a placed session whose turn reports its host lost probes the
	// host and, when it does not answer, moves to another with the next placement
	// generation and restores its latest checkpoint there (host_loss.go). Asked
	// after such a turn.
	sessionMove = "session-move"
	// sessionRepo: a session with Repo has its host clone it into the working
	// directory before the first turn (session_source.go). Asked before the clone.
	sessionRepo = "session-repo"
	// turnHistory: a top-level session records a mark of every model call in the
	// store (RecordTurn: the session's history, the points a rewind or a fork goes
	// to; session_rewind.go). Asked after each model call.
	turnHistory = "turn-history"
	// workspaceTimeline: a session records each checkpoint in its workspace
	// timeline in the store (RecordWorkspace), and a rewind takes the code back too
	// (Scope: both by default, conversation, code): it resolves first without
	// changing anything, captures the workspace (the undo), restores the target's
	// state in place on the session's host, and only then moves the conversation
	// (session_rewind_code.go). Asked after each capture and at each rewind.
	workspaceTimeline = "workspace-timeline"
	// placedCatchUp: a later run of a placed session (not a continue-as-new) asks
	// its host, before anything reads the workspace, to restore the session's
	// latest workspace state unless that host left it there (RestoreCheckpoint
	// with CatchUp, session_catch_up.go). Asked once at the start of such a run.
	placedCatchUp = "placed-catch-up"
)
