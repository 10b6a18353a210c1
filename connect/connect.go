package connect

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/contrib/envconfig"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"

	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/toolenv"
)

// Conn is a client and, in embedded mode, the server it talks to.
type Conn struct {
	Client client.Client
	// Server is the embedded server this process started; nil in cluster mode or
	// when another process's embedded server is used.
	Server EmbeddedServer
	// Embedded is true when the server is an embedded one (ours or another
	// process's on the same state directory).
	Embedded bool
	// Address is the frontend address in use.
	Address string
	// Namespace is the namespace the client works in.
	Namespace string
	// ServerPID is the process running the embedded server in use (this one when
	// Server is set); 0 in cluster mode.
	ServerPID int
	// NoUI says why no Web UI is served beside the embedded server in use ("off"
	// when it was not asked for, else the reason: its port is taken, the other
	// process's server serves none); "" when one is, and in cluster mode.
	NoUI string
	// DefaultAddress says that no cluster was configured (no TEMPORAL_ADDRESS, no
	// profile) and a Cluster-mode connection went to the SDK's default address.
	DefaultAddress bool
	// Blob is the store of Options.BlobURL, opened and checked; nil when
	// none was given (the state directory is the store).
	Blob *blobstore.Store
	// keeper restarts the embedded server when its process exits (keeper.go).
	keeper *keeper
	// attrs is the namespace's answer about toolpipe's search attributes, asked
	// once per connection (searchattrs.go).
	attrs attrProbe
}

// ErrNoEmbeddedServer is returned by Dial for the embedded server in a build
// without it (-tags toolpipe_noserver, the release worker).
var ErrNoEmbeddedServer = errors.New("this binary was built without the embedded Temporal server (-tags toolpipe_noserver): " +
	"set TEMPORAL_ADDRESS (or a temporal.toml profile) to reach a cluster, or use `starter dev`, or build cmd/worker without the tag")

// EmbeddedServer is what a client sees of the embedded server it started (a
// *devserver.Server). An interface, so that a build without the server
// (connect_noserver.go) does not link it.
type EmbeddedServer interface {
	FrontendAddress() string
	UIAddress() string
	Namespace() string
	Stop() error
}

// Options say how to reach Temporal.
type Options struct {
	StateDir string
	// Port and UIPort are for a server this process starts; UI turns the UI on.
	Port, UIPort int
	UI           bool
	Logger       *slog.Logger
	// Mode says where to connect.
	Mode Mode
	// Telemetry adds tracing and metrics to the client and its workers; nil: none.
	Telemetry *plugin.Telemetry
	// BlobURL is the blob store every host of a fleet shares (blob-url): large
	// payloads go there, and Conn.Blob is it for the workers. Empty is the state
	// directory, as before.
	BlobURL string
	// blob is BlobURL's store once Connect opened it.
	blob *blobstore.Store
}

// Mode is where Connect looks for Temporal.
type Mode int

const (
	// Auto uses the configured cluster, else the embedded server (the starter).
	Auto Mode = iota
	// Cluster always uses the cluster; with nothing configured the SDK's default
	// address, localhost:7233 (a worker process).
	Cluster
	// Embedded ignores any cluster configuration (worker --dev, starter dev).
	Embedded
)

// Dial reaches the cluster configured through TEMPORAL_ADDRESS or a profile
// (envconfig); with none configured it uses the embedded server on the state
// directory: the one another process already runs there, or a new one.
func Dial(ctx context.Context, o Options) (*Conn, error) {
	var blob *blobstore.Store
	if o.BlobURL != "" {
		var err error
		if blob, err = openBlob(ctx, o.BlobURL, o.StateDir); err != nil {
			return nil, fmt.Errorf("connect: %s: %w", blobstore.SettingName, err)
		}
	}
	o.blob = blob
	c, err := reach(ctx, o)
	if err != nil {
		if blob != nil {
			blob.Close()
		}
		return nil, err
	}
	c.Blob = blob
	return c, nil
}

func reach(ctx context.Context, o Options) (*Conn, error) {
	if o.Mode != Embedded {
		// TEMPORAL_API_KEY and TEMPORAL_TLS_* are held secrets (HideSecrets): the
		// lookup sees them, the process environment does not.
		opts, err := envconfig.LoadClientOptions(envconfig.LoadClientOptionsRequest{EnvLookup: toolenv.Env{}})
		if err != nil {
			return nil, fmt.Errorf("connect: temporal client configuration: %w", err)
		}
		if opts.HostPort != "" || o.Mode == Cluster {
			opts.Logger = log.NewStructuredLogger(logger(o.Logger))
			defaulted := opts.HostPort == ""
			if defaulted {
				opts.HostPort = client.DefaultHostPort
			}
			if opts.ExternalStorage, err = payloadStorage(o.StateDir, o.blob); err != nil {
				return nil, err
			}
			if opts, err = o.Telemetry.ClientOptions(opts); err != nil {
				return nil, err
			}
			c, err := client.DialContext(ctx, opts)
			if err != nil && defaulted {
				return nil, fmt.Errorf("connect: no TEMPORAL_ADDRESS or temporal.toml profile is set, and nothing answers at the SDK's default address %s: %w", opts.HostPort, err)
			}
			if err != nil {
				return nil, fmt.Errorf("connect: cluster at %s: %w", opts.HostPort, err)
			}
			ns := opts.Namespace
			if ns == "" {
				ns = client.DefaultNamespace
			}
			return &Conn{Client: c, Address: opts.HostPort, Namespace: ns, DefaultAddress: defaulted}, nil
		}
	}
	return connectEmbedded(ctx, o)
}

// loopbackReconnect: the embedded server comes back within a second or two of
// going away (another client takes it over), and the SDK's reconnect backoff (up
// to 10 s between tries) would leave its workers and clients deaf for most of a
// heartbeat timeout after it is back. Reconnecting to loopback every second costs
// nothing.
var loopbackReconnect = grpc.ConnectParams{
	Backoff:           backoff.Config{BaseDelay: 100 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: time.Second},
	MinConnectTimeout: 5 * time.Second,
}

func dial(ctx context.Context, addr, ns string, o Options) (client.Client, error) {
	storage, err := payloadStorage(o.StateDir, o.blob)
	if err != nil {
		return nil, err
	}
	opts := client.Options{HostPort: addr, Namespace: ns, Logger: log.NewStructuredLogger(logger(o.Logger)), ExternalStorage: storage,
		// The embedded server is on loopback: gzip (the SDK's default) would only
		// spend CPU on both ends of every call (BENCHMARKS.md).
		ConnectionOptions: client.ConnectionOptions{GrpcCompression: &client.GrpcCompressionNone{},
			DialOptions: []grpc.DialOption{grpc.WithConnectParams(loopbackReconnect)}}}
	if opts, err = o.Telemetry.ClientOptions(opts); err != nil {
		return nil, err
	}
	c, err := client.DialContext(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("connect: embedded server at %s: %w", addr, err)
	}
	return c, nil
}

// Close closes the client and stops the embedded server this process started.
func (c *Conn) Close() {
	c.Client.Close()
	if c.Blob != nil {
		c.Blob.Close()
	}
	if c.keeper != nil {
		c.keeper.close()
	} else if c.Server != nil {
		c.Server.Stop()
	}
}

// payloadStorage keeps payloads over Temporal's limits (a 5 MB Write) in the blob
// store when one is shared (every client and worker of a fleet reads it), else in
// the state directory, which every client and worker must then share.
func payloadStorage(stateDir string, blob *blobstore.Store) (converter.ExternalStorage, error) {
	if blob != nil {
		return persistence.NewBlobPayloadDriver(blob).ExternalStorage(), nil
	}
	d, err := persistence.NewPayloadDriver(filepath.Join(stateDir, persistence.PayloadDirName))
	if err != nil {
		return converter.ExternalStorage{}, fmt.Errorf("connect: %w", err)
	}
	return d.ExternalStorage(), nil
}

// logger is l, or slog's default.
func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.Default()
	}
	return l
}
