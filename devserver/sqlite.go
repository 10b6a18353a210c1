package devserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"go.temporal.io/server/common/config"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	sqliteschema "go.temporal.io/server/schema/sqlite"

	"github.com/toolpipe/toolpipe/searchattr"
)

const (
	dbFileName = "temporal.db"
	// storeName names the one data store serving both execution and
	// visibility persistence.
	storeName = "sqlite-default"
	// clusterName is the single, non-replicated cluster's name; the Temporal
	// CLI's dev server uses the same, which keeps a database file portable
	// between the two.
	clusterName = "active"
)

// sqlConfig describes the database file for the SQLite persistence plugin.
//
// The plugin keeps one connection per distinct configuration for the life of
// the process and never closes it, so schema setup, namespace creation and
// the server must all use this exact configuration: then they share that one
// connection, and a restart in the same process reuses it instead of
// opening a second connection to the same file.
func sqlConfig(dbPath, synchronous string) *config.SQL {
	return &config.SQL{
		PluginName:   sqliteplugin.PluginName,
		DatabaseName: dbPath,
		ConnectAttributes: map[string]string{
			// Read-write, create if missing; never the in-memory mode.
			"mode": "rwc",
			// WAL lets the server's readers proceed during a write and costs
			// one write per commit instead of the rollback journal's two.
			"journal_mode": "wal",
			// FULL (the default) rather than WAL's usual NORMAL: a tool call
			// acknowledged as recorded must survive a power cut, or it might
			// run twice. NORMAL is an opt-in for speed (Config).
			"synchronous": synchronous,
			// Wait rather than fail if something else, say the sqlite3 shell,
			// briefly holds the file.
			"busy_timeout": "10000",
		},
	}
}

// ensureSchema creates the tables when the database file is new. The schema
// script is not idempotent, so an existing file is left alone; a file of
// zero bytes is what an interrupted first start leaves behind and is set up
// again.
func ensureSchema(cfg *config.SQL) (created bool, err error) {
	st, err := os.Stat(cfg.DatabaseName)
	switch {
	case err == nil && st.Size() > 0:
		return false, nil
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return false, fmt.Errorf("devserver: stat database: %w", err)
	}
	if err := sqliteschema.SetupSchema(cfg); err != nil {
		return false, fmt.Errorf("devserver: set up schema in %s: %w", filepath.Base(cfg.DatabaseName), err)
	}
	return true, nil
}

// ensureNamespace registers the namespace, with toolpipe's search attributes,
// directly in the database if it is not there yet. Doing it before the server
// starts, as the Temporal CLI does, means the namespace exists the moment the
// frontend answers, with no wait for the namespace cache to refresh.
func ensureNamespace(cfg *config.SQL, namespace string) error {
	ns, err := sqliteschema.NewNamespaceConfig(clusterName, namespace, false, searchattr.Registered())
	if err != nil {
		return fmt.Errorf("devserver: namespace %q: %w", namespace, err)
	}
	// A no-op for a namespace that already exists, whatever its settings.
	if err := sqliteschema.CreateNamespaces(cfg, ns); err != nil {
		return fmt.Errorf("devserver: create namespace %q: %w", namespace, err)
	}
	return nil
}
