package connect

import (
	"context"
	"os"
	"strings"
	"sync"

	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/toolenv"
)

// heldCredentials are the variables of the blob store's credentials that
// HideSecrets takes out of the environment (toolenv's secret list): the cloud SDKs
// read them from the environment when the store is opened.
var heldCredentials = []string{"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID",
	"AZURE_STORAGE_KEY", "AZURE_STORAGE_SAS_TOKEN", "AZURE_CLIENT_SECRET", "GOOGLE_APPLICATION_CREDENTIALS"}

var openMu sync.Mutex

// openBlob opens the blob store of rawURL. The SDKs of S3, GCS and Azure read their
// credentials from the environment when a bucket is opened (the AWS SDK keeps them
// as static values from then on), and a worker's secrets are held in memory, not
// in its environment (HideSecrets): they are put back for the open alone and
// removed at once. This happens at start, before any tool runs, so no tool's
// process is started while they are set.
func openBlob(ctx context.Context, rawURL, stateDir string) (*blobstore.Store, error) {
	openMu.Lock()
	defer openMu.Unlock()
	if !strings.HasPrefix(rawURL, "file:") {
		for _, name := range heldCredentials {
			if _, inEnv := os.LookupEnv(name); inEnv {
				continue
			}
			if v, held := toolenv.LookupEnv(name); held {
				os.Setenv(name, v)
				defer os.Unsetenv(name)
			}
		}
	}
	return persistence.OpenStore(ctx, rawURL, stateDir)
}
