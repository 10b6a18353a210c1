package toolpipe_test

import (
	"os"
	"testing"

	"github.com/toolpipe/toolpipe/internal/testenv"
)

// TestMain points the examples' clients (envconfig: TEMPORAL_ADDRESS and
// TEMPORAL_NAMESPACE) at the test binary's server, so that they run.
func TestMain(m *testing.M) {
	srv := testenv.Server()
	os.Setenv("TEMPORAL_ADDRESS", srv.GetFrontendHostPort())
	os.Setenv("TEMPORAL_NAMESPACE", srv.GetDefaultNamespace())
	os.Exit(m.Run())
}
