package connect

import (
	"context"
	"net/url"
)

// UIAddress is the base URL of the Web UI beside the embedded server this
// connection uses (its own, or the one another process runs on the same state
// directory), or "" when no UI is served or the server is a cluster's.
func (c *Conn) UIAddress(stateDir string) string {
	if !c.Embedded {
		return ""
	}
	if c.Server != nil {
		return c.Server.UIAddress()
	}
	return runningUIAddress(stateDir) // connect_embedded.go
}

// WorkflowLink is the Web UI's page of one workflow run (the URL shape of the UI the
// embedded server serves): its history, with the summaries, and the User Metadata
// tab. Ids are path-escaped: a session's turns are "session-S/turn-N".
func WorkflowLink(uiAddress, namespace, workflowID, runID string) string {
	return uiAddress + "/namespaces/" + url.PathEscape(namespace) + "/workflows/" +
		url.PathEscape(workflowID) + "/" + url.PathEscape(runID) + "/history"
}

// ListLink is the Web UI's workflow list filtered by a visibility query, such as
// ToolpipeSessionID="S".
func ListLink(uiAddress, namespace, query string) string {
	return uiAddress + "/namespaces/" + url.PathEscape(namespace) + "/workflows?query=" + url.QueryEscape(query)
}

// runID is the run a link should show: the one given, else the workflow's current.
func (c *Conn) runID(ctx context.Context, workflowID, runID string) string {
	if runID != "" {
		return runID
	}
	d, err := c.Client.DescribeWorkflowExecution(ctx, workflowID, "")
	if err != nil {
		return ""
	}
	return d.GetWorkflowExecutionInfo().GetExecution().GetRunId()
}

// Link is the Web UI's page of a workflow when a UI is served, else "".
func (c *Conn) Link(ctx context.Context, stateDir, workflowID, runID string) string {
	ui := c.UIAddress(stateDir)
	if ui == "" {
		return ""
	}
	if runID = c.runID(ctx, workflowID, runID); runID == "" {
		return ""
	}
	return WorkflowLink(ui, c.Namespace, workflowID, runID)
}
