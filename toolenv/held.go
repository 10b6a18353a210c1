package toolenv

import (
	"os"
	"slices"
	"strings"
	"sync"
)

// held are the process's secrets once worker.HideSecrets has taken them out of
// its environment: the variables Policy.Secret names, handed over a pipe to the
// re-executed process, which keeps them here only. Neither /proc/PID/environ nor
// `ps eww` shows them, and no child process inherits them, since os.Environ()
// no longer has them; what needs one (the model's key, the Temporal client's TLS
// material, telemetry headers, an allowed ${VAR} of .mcp.json) asks LookupEnv.
var held struct {
	sync.RWMutex
	vars map[string]string
}

// Hold adds vars to the held secrets (a name held already is replaced).
func Hold(vars map[string]string) {
	held.Lock()
	defer held.Unlock()
	if held.vars == nil {
		held.vars = map[string]string{}
	}
	for k, v := range vars {
		held.vars[k] = v
	}
}

// HeldNames lists the names of the held secrets, sorted.
func HeldNames() []string {
	held.RLock()
	defer held.RUnlock()
	names := make([]string, 0, len(held.vars))
	for k := range held.vars {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// LookupEnv is os.LookupEnv that also sees the held secrets (which win).
func LookupEnv(name string) (string, bool) {
	held.RLock()
	v, ok := held.vars[name]
	held.RUnlock()
	if ok {
		return v, true
	}
	return os.LookupEnv(name)
}

// Getenv is os.Getenv that also sees the held secrets.
func Getenv(name string) string {
	v, _ := LookupEnv(name)
	return v
}

// Env is the process environment with the held secrets in it, for libraries that
// read a whole environment (envconfig.EnvLookup: the Temporal client's
// TEMPORAL_API_KEY and TEMPORAL_TLS_*). Never give it to a child process.
type Env struct{}

// Environ returns os.Environ() with the held secrets added.
func (Env) Environ() []string {
	env := os.Environ()
	held.RLock()
	defer held.RUnlock()
	out := make([]string, 0, len(env)+len(held.vars))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := held.vars[name]; !ok {
			out = append(out, kv)
		}
	}
	for k, v := range held.vars {
		out = append(out, k+"="+v)
	}
	return out
}

// LookupEnv is the package's LookupEnv.
func (Env) LookupEnv(name string) (string, bool) { return LookupEnv(name) }
