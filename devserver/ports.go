package devserver

import (
	"fmt"
	"net"
	"strconv"

	"go.temporal.io/server/common/primitives"
)

// host is the only interface anything here binds to: the server has no
// authentication, so it must not be reachable from other machines.
const host = "127.0.0.1"

// Ports used when the embedding program does not want its own; they are the
// Temporal CLI's dev server defaults, so existing tools and habits (temporal
// CLI, SDK samples, bookmarks to the UI) work unchanged.
const (
	DefaultFrontendPort = 7233
	DefaultUIPort       = 8233
)

// freePorts returns n distinct ports on host that were free a moment ago.
// All listeners are held until every port is chosen, or the kernel could hand
// out the same port twice. The server takes ports, not listeners, so a small
// window remains in which another process could grab one; Start checks again
// right before use to turn that into an error instead of a crash.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	listeners := make([]net.Listener, 0, n)
	defer func() {
		for _, l := range listeners {
			_ = l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			return nil, fmt.Errorf("devserver: find a free port: %w", err)
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// checkPortsFree fails with a clear message if a port is taken, or listed
// twice (say the UI port given equal to the frontend's): all are held at
// once, so a duplicate fails to bind. Without the check a busy port surfaces
// as a failed bind deep inside the server or, for the UI server, as an exit
// of the whole process.
func checkPortsFree(ports ...int) error {
	listeners := make([]net.Listener, 0, len(ports))
	defer func() {
		for _, l := range listeners {
			_ = l.Close()
		}
	}()
	for _, p := range ports {
		l, err := net.Listen("tcp", hostPort(p))
		if err != nil {
			return fmt.Errorf("devserver: port %d on %s is not available: %w", p, host, err)
		}
		listeners = append(listeners, l)
	}
	return nil
}

// choosePorts picks the services' ports: the frontend's from cfg (0: a free one,
// written back) and free ones for the others. A port someone gave that is taken
// is an error; a chosen one taken between its choice and its check (another
// process starting at the same moment) is chosen again, a few times.
func choosePorts(cfg *Config) (map[primitives.ServiceName]int, error) {
	if cfg.FrontendPort != 0 {
		if err := checkPortsFree(cfg.FrontendPort); err != nil {
			return nil, err
		}
	}
	var err error
	for range 5 {
		var ports []int
		if ports, err = freePorts(4); err != nil {
			return nil, err
		}
		frontend := cfg.FrontendPort
		if frontend == 0 {
			frontend = ports[0]
		}
		if err = checkPortsFree(frontend, ports[1], ports[2], ports[3]); err != nil {
			continue
		}
		cfg.FrontendPort = frontend
		return map[primitives.ServiceName]int{
			primitives.FrontendService: frontend,
			primitives.HistoryService:  ports[1],
			primitives.MatchingService: ports[2],
			primitives.WorkerService:   ports[3],
		}, nil
	}
	return nil, err
}

func hostPort(port int) string {
	return net.JoinHostPort(host, strconv.Itoa(port))
}
