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

// cloudFamilies are the prefixes of the variables the blob store's cloud SDKs read
// when a store is opened (credentials, region, endpoint, profile), which
// HideSecrets takes out of the environment (toolenv's secret list).
var cloudFamilies = []string{"AWS_", "AZURE_", "GOOGLE_", "GCLOUD_", "CLOUDSDK_"}

// heldCredentials are the held variables of cloudFamilies.
func heldCredentials() []string {
	var out []string
	for _, name := range toolenv.HeldNames() {
		for _, p := range cloudFamilies {
			if strings.HasPrefix(name, p) {
				out = append(out, name)
				break
			}
		}
	}
	return out
}

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
		for _, name := range heldCredentials() {
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
