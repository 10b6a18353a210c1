package workflows

import (
	"encoding/json"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/tool"
)

// Skills, as Claude Code has them: SKILL.md files under the directories the
// session was given (SessionInput.SkillDirs: the user's ~/.claude/skills, and the
// workspace's .claude/skills only when it is trusted, which the starter decides).
// A new session lists them once (the LoadSkills activity), keeps the listing in
// its state (continue-as-new carries it) and tells the model in its system prompt;
// the Skill tool loads one, and its text goes into the next user message. A
// session given no directories schedules nothing new, so older histories replay.

// skillsCtx runs LoadSkills: it reads a few small files.
func (s *session) skillsCtx(ctx workflow.Context, summary string) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute, Summary: summary,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second, MaximumAttempts: 5},
	})
}

// listSkills lists the session's skills, once, when it starts. A listing that
// fails leaves the session without skills rather than failing it.
func (s *session) listSkills(ctx workflow.Context) {
	if len(s.in.SkillDirs) == 0 {
		return
	}
	var reply contract.SkillsReply
	err := workflow.ExecuteActivity(s.skillsCtx(ctx, "List skills"), s.names.of(contract.LoadSkillsActivityName),
		contract.SkillsRequest{Dirs: s.in.SkillDirs}).Get(ctx, &reply)
	if err != nil {
		s.note(SessionEvent{Kind: EventNotice, Text: "skills could not be listed: " + failureMessage(err)})
		return
	}
	s.own.Skills = reply.Skills
}

// systemPrompt is the model's system prompt: the configured one, then the
// listing of the skills, as Claude Code appends it.
func (s *session) systemPrompt() string {
	if len(s.own.Skills) == 0 {
		return s.model.System
	}
	lines := make([]string, 0, len(s.own.Skills))
	for _, sk := range s.own.Skills {
		lines = append(lines, "- "+sk.Name+": "+sk.Description)
	}
	listing := tool.SkillsListing(lines)
	if s.model.System == "" {
		return listing
	}
	return s.model.System + "\n\n" + listing
}

// loadSkill answers a Skill call: an unknown name in Claude Code's words, else
// "Launching skill: NAME", and the skill's text in the next user message.
func (s *session) loadSkill(ctx workflow.Context, input json.RawMessage) BackgroundReply {
	in := tool.SkillOf(input)
	known := false
	for _, sk := range s.own.Skills {
		known = known || sk.Name == in.Skill
	}
	if !known {
		return BackgroundReply{Content: tool.UseError(tool.UnknownSkill(in.Skill)), IsError: true}
	}
	var reply contract.SkillsReply
	err := workflow.ExecuteActivity(s.skillsCtx(ctx, "Load skill "+in.Skill), s.names.of(contract.LoadSkillsActivityName),
		contract.SkillsRequest{Dirs: s.in.SkillDirs, Name: in.Skill, Args: in.Args}).Get(ctx, &reply)
	switch {
	case err != nil:
		return BackgroundReply{Content: "Error: the skill " + in.Skill + " could not be loaded: " + failureMessage(err), IsError: true}
	case !reply.Found: // removed since the listing
		return BackgroundReply{Content: tool.UseError(tool.UnknownSkill(in.Skill)), IsError: true}
	}
	s.pendingUser = append(s.pendingUser, conversation.UserText(reply.Text))
	return BackgroundReply{Content: tool.LaunchingSkill(in.Skill),
		Response: marshalJSON(map[string]any{"success": true, "commandName": in.Skill})}
}
