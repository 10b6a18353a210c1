package main

import (
	"fmt"
	"io"

	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/workflows"
)

// sessionReadFiles are the files earlier `starter run` calls of the session read or
// wrote, which the turn starts with: an Edit may follow a Read of another run, as
// it may follow one of the same turn. They are kept with the session's state, in
// the state directory (persistence.ReadState).
func sessionReadFiles(cfg config.Config) ([]string, error) {
	rs, err := persistence.NewReadState(cfg.StateDir)
	if err != nil {
		return nil, err
	}
	files, err := rs.Load(cfg.Session)
	if err != nil {
		return nil, fmt.Errorf("session %s: read state: %w", cfg.Session, err)
	}
	return files, nil
}

// keepReadFiles records what the turn read for the session's next runs. Failing to
// record it does not undo the turn: its results are printed, with a warning.
func keepReadFiles(cfg config.Config, res workflows.TurnResult, stderr io.Writer) {
	rs, err := persistence.NewReadState(cfg.StateDir)
	if err == nil {
		err = rs.Add(cfg.Session, res.Context.ReadFiles)
	}
	if err != nil {
		fmt.Fprintf(stderr, "starter: warning: the files this turn read are not remembered for the next run: %v\n", err)
	}
}
