package devserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/membership/static"
	"go.temporal.io/server/common/metrics"
	"go.temporal.io/server/common/primitives"
	"go.temporal.io/server/temporal"
)

// Config configures Start.
type Config struct {
	// StateDir holds the database (temporal.db), the lock and server.json.
	// Required and absolute; created if missing.
	StateDir string
	// Namespace is created on start if missing. Default "default".
	Namespace string
	// FrontendPort is the gRPC port on 127.0.0.1; 0 picks a free one.
	// Programs that want the conventional port pass DefaultFrontendPort.
	FrontendPort int
	// UI serves the Temporal Web UI.
	UI bool
	// UIPort is the Web UI's port on 127.0.0.1 when UI is set; 0 picks a
	// free one. Programs that want the conventional port pass DefaultUIPort.
	UIPort int
	// Logger receives the server's logs. Default slog.Default().
	Logger *slog.Logger
	// LogLevel is the least severe server record passed to Logger. Default
	// slog.LevelWarn: at info the server logs several lines a second.
	LogLevel slog.Leveler
	// SQLiteSynchronous is SQLite's synchronous mode: "full" (default) makes every
	// commit survive a power cut; "normal" survives a process crash but may lose the
	// last commits on a power cut or kernel crash, and is about four times faster
	// (BENCHMARKS.md).
	SQLiteSynchronous string
	// SQLitePragmas are further SQLite pragmas (cache_size, mmap_size, temp_store,
	// ...) for benchmarks; the defaults are measured in BENCHMARKS.md. They may not
	// override journal_mode or synchronous, which durability rests on.
	SQLitePragmas map[string]string
	// SQLiteMaxConns is how many connections the server opens to the file; 0 means
	// one (the plugin's default). WAL lets readers run beside the one writer.
	SQLiteMaxConns int
	// MetricsHandler, when set, receives the server's metrics (persistence
	// latencies, history task queue latencies, matching's sync matches...):
	// for benchmarks and diagnosis. Default none.
	MetricsHandler metrics.Handler
}

// Server is a running embedded Temporal server. Stop it to release the
// state directory.
type Server struct {
	cfg          Config
	frontendAddr string
	uiAddr       string
	startedAt    time.Time

	lock     *stateLock
	temporal temporal.Server
	ui       *webUI

	// stopping silences the server's logs during shutdown.
	stopping atomic.Bool
	stopOnce sync.Once
	stopErr  error
}

// Start starts a Temporal server persisting to <StateDir>/temporal.db and,
// if asked, the Web UI, and returns once both answer requests. ctx bounds the
// wait for readiness. If another server owns StateDir it fails with an error
// matching ErrStateDirInUse; see Running to find that server instead.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.StateDir, 0o700); err != nil {
		return nil, fmt.Errorf("devserver: create state dir: %w", err)
	}
	lock, err := lockStateDir(cfg.StateDir)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, lock: lock}
	started := false
	var uiLn net.Listener
	defer func() {
		if !started {
			if uiLn != nil && s.ui == nil {
				_ = uiLn.Close()
			}
			_ = s.Stop()
		}
	}()
	// The UI's port is bound first and held: a process starting at the same moment
	// finds it taken (ErrUIPort) instead of racing for it (ui.go).
	if cfg.UI {
		if uiLn, err = listenUI(cfg.UIPort); err != nil {
			return nil, err
		}
		cfg.UIPort = uiLn.Addr().(*net.TCPAddr).Port
	}

	sqlCfg := sqlConfig(filepath.Join(cfg.StateDir, dbFileName), cfg.SQLiteSynchronous)
	for k, v := range cfg.SQLitePragmas {
		sqlCfg.ConnectAttributes[k] = v
	}
	sqlCfg.MaxConns = cfg.SQLiteMaxConns
	if _, err := ensureSchema(sqlCfg); err != nil {
		return nil, err
	}
	if err := ensureNamespace(sqlCfg, cfg.Namespace); err != nil {
		return nil, err
	}

	// History, matching and worker need ports too, all on loopback, chosen last:
	// the schema's set-up can take seconds on a busy machine, long enough for
	// another process to take a port chosen before it.
	services, err := choosePorts(&cfg)
	if err != nil {
		return nil, err
	}
	s.frontendAddr = hostPort(cfg.FrontendPort)
	if s.temporal, err = newTemporal(cfg, sqlCfg, services, &s.stopping); err != nil {
		return nil, err
	}
	if err := startTemporal(s.temporal); err != nil {
		// The server's failed Start has already run the stop hooks of
		// whatever it had started; stopping it again would only error.
		s.temporal = nil
		return nil, err
	}
	if err := awaitFrontend(ctx, s.frontendAddr, cfg.Namespace, cfg.Logger); err != nil {
		return nil, err
	}
	if cfg.UI {
		if s.ui, err = startUI(ctx, uiLn, s.frontendAddr, cfg.Namespace, cfg.Logger); err != nil {
			return nil, err
		}
		s.uiAddr = "http://" + hostPort(cfg.UIPort)
	}
	s.cfg = cfg
	s.startedAt = time.Now().UTC().Truncate(time.Second)
	// Advertised last: Running must only ever point at a server that answers.
	if err := writeInfo(cfg.StateDir, s.Info()); err != nil {
		return nil, err
	}
	started = true
	return s, nil
}

func (c Config) normalize() (Config, error) {
	if c.StateDir == "" || !filepath.IsAbs(c.StateDir) {
		return c, fmt.Errorf("devserver: state dir must be an absolute path, got %q", c.StateDir)
	}
	c.StateDir = filepath.Clean(c.StateDir)
	switch c.SQLiteSynchronous {
	case "":
		c.SQLiteSynchronous = "full"
	case "full", "normal":
	default:
		return c, fmt.Errorf("devserver: SQLiteSynchronous %q must be \"full\" or \"normal\"", c.SQLiteSynchronous)
	}
	for k := range c.SQLitePragmas {
		if k == "journal_mode" || k == "synchronous" || k == "mode" {
			return c, fmt.Errorf("devserver: SQLitePragmas may not set %q (durability depends on it; use SQLiteSynchronous)", k)
		}
	}
	if c.SQLiteMaxConns < 0 {
		return c, fmt.Errorf("devserver: SQLiteMaxConns %d is negative", c.SQLiteMaxConns)
	}
	if c.Namespace == "" {
		c.Namespace = "default"
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.LogLevel == nil {
		c.LogLevel = slog.LevelWarn
	}
	for _, p := range []int{c.FrontendPort, c.UIPort} {
		if p < 0 || p > 65535 {
			return c, fmt.Errorf("devserver: invalid port %d", p)
		}
	}
	return c, nil
}

// FrontendAddress is the gRPC frontend's host:port, for SDK clients.
func (s *Server) FrontendAddress() string { return s.frontendAddr }

// UIAddress is the Web UI's base URL (http://127.0.0.1:PORT), or "" when
// the UI is off.
func (s *Server) UIAddress() string { return s.uiAddr }

// Namespace is the namespace Start made sure exists.
func (s *Server) Namespace() string { return s.cfg.Namespace }

// Info is what the server advertises to other processes in server.json.
func (s *Server) Info() Info {
	return Info{
		PID:             os.Getpid(),
		FrontendAddress: s.frontendAddr,
		UIAddress:       s.uiAddr,
		Namespace:       s.cfg.Namespace,
		StartedAt:       s.startedAt,
	}
}

// Stop shuts down the UI and the server and releases the state directory.
// Workflows still open are persisted and resume on the next Start. Calling
// Stop again returns the first call's result.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		var errs []error
		// Stop advertising first so no newcomer dials a closing server.
		errs = append(errs, removeInfo(s.cfg.StateDir))
		if s.ui != nil {
			s.ui.stop()
		}
		if s.temporal != nil {
			s.stopping.Store(true)
			if err := s.temporal.Stop(); err != nil {
				errs = append(errs, fmt.Errorf("devserver: stop server: %w", err))
			}
		}
		// Only once nothing touches the database may another process open it.
		errs = append(errs, s.lock.release())
		s.stopErr = errors.Join(errs...)
	})
	return s.stopErr
}

// newTemporal builds the server the way the Temporal CLI's dev server does:
// all four services in this process, each finding the others at fixed
// loopback addresses instead of through ringpop gossip, which would need
// yet more ports and slow down start-up.
func newTemporal(cfg Config, sqlCfg *config.SQL, services map[primitives.ServiceName]int, quiet *atomic.Bool) (srv temporal.Server, err error) {
	hosts := make(map[primitives.ServiceName]static.Hosts, len(services))
	svcConf := make(map[string]config.Service, len(services))
	for name, port := range services {
		hosts[name] = static.SingleLocalHost(hostPort(port))
		svcConf[string(name)] = config.Service{RPC: config.RPC{GRPCPort: port, BindOnIP: host}}
	}
	conf := &config.Config{
		Global: config.Global{
			Membership: config.Membership{MaxJoinDuration: 30 * time.Second, BroadcastAddress: host},
		},
		Persistence: config.Persistence{
			DefaultStore:     storeName,
			VisibilityStore:  storeName,
			NumHistoryShards: 1,
			DataStores:       map[string]config.DataStore{storeName: {SQL: sqlCfg}},
		},
		ClusterMetadata: &cluster.Config{
			FailoverVersionIncrement: 10,
			MasterClusterName:        clusterName,
			CurrentClusterName:       clusterName,
			ClusterInformation: map[string]cluster.ClusterInformation{
				// No ClusterID: the server generates one on first start and
				// keeps the stored one afterwards.
				clusterName: {Enabled: true, InitialFailoverVersion: 1, RPCAddress: hostPort(cfg.FrontendPort)},
			},
		},
		DCRedirectionPolicy: config.DCRedirectionPolicy{Policy: "noop"},
		Services:            svcConf,
		PublicClient:        config.PublicClient{HostPort: hostPort(cfg.FrontendPort)},
	}
	conf.Archival.History.State = "disabled"
	conf.Archival.Visibility.State = "disabled"
	conf.NamespaceDefaults.Archival.History.State = "disabled"
	conf.NamespaceDefaults.Archival.Visibility.State = "disabled"

	defer recoverServerPanic("create server", &err)
	opts := []temporal.ServerOption{
		temporal.WithConfig(conf),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithStaticHosts(hosts),
		temporal.WithLogger(newServerLogger(cfg.Logger, cfg.LogLevel, quiet)),
		temporal.WithAuthorizer(authorization.NewNoopAuthorizer()),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper {
			return authorization.NewNoopClaimMapper()
		}),
		temporal.WithDynamicConfigClient(dynamicConfig()),
	}
	if cfg.MetricsHandler != nil {
		opts = append(opts, temporal.WithCustomMetricsHandler(cfg.MetricsHandler))
	}
	srv, err = temporal.NewServer(opts...)
	if err != nil {
		return nil, fmt.Errorf("devserver: create server: %w", err)
	}
	return srv, nil
}

func startTemporal(srv temporal.Server) (err error) {
	defer recoverServerPanic("start server", &err)
	if err := srv.Start(); err != nil {
		return fmt.Errorf("devserver: start server: %w", err)
	}
	return nil
}

// recoverServerPanic turns a Fatal or Panic log call from the server into an
// error; any other panic is a bug and keeps going.
func recoverServerPanic(what string, err *error) {
	r := recover()
	if r == nil {
		return
	}
	p, ok := r.(serverPanic)
	if !ok {
		panic(r)
	}
	*err = fmt.Errorf("devserver: %s: %s", what, p.msg)
}
