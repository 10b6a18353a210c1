// Package s3test gives tests a real S3-compatible server on 127.0.0.1: gofakes3
// (github.com/johannesboyne/gofakes3), which speaks the S3 REST API over HTTP,
// including conditional puts (If-None-Match: *, answered 412 when the key exists).
// Start runs it in the test's process; StartProcess runs the program in ./s3server
// as a separate process, for tests whose workers are other processes and that kill
// or restart things. Clients are the real AWS SDK, through gocloud's s3blob, so the
// requests are signed and sent as they would be to AWS.
package s3test

import (
	"bufio"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// DefaultBucket is the bucket a server creates when none is named.
const DefaultBucket = "toolpipe"

// Env is what a client process needs beside the URL: fake credentials (the server
// checks no signature, the SDK insists on signing) and no EC2 metadata lookups.
var Env = []string{
	"AWS_ACCESS_KEY_ID=s3test",
	"AWS_SECRET_ACCESS_KEY=s3test-secret",
	"AWS_EC2_METADATA_DISABLED=true",
}

// Server is a running S3-compatible server.
type Server struct {
	// Endpoint is the server's base URL, http://127.0.0.1:<port>.
	Endpoint string
	// Bucket is the bucket created at start.
	Bucket string

	stop func()
	once sync.Once
}

// URL is a gocloud blob URL for bucket on this server (path-style requests to the
// endpoint, as every S3-compatible server accepts); empty is the server's Bucket.
func (s *Server) URL(bucket string) string {
	if bucket == "" {
		bucket = s.Bucket
	}
	return BucketURL(s.Endpoint, bucket)
}

// BucketURL is the gocloud blob URL of bucket at an S3-compatible endpoint.
func BucketURL(endpoint, bucket string) string {
	q := url.Values{}
	q.Set("endpoint", endpoint)
	q.Set("region", "us-east-1")
	q.Set("use_path_style", "true")
	return "s3://" + bucket + "?" + q.Encode()
}

// Stop shuts the server down (idempotent), so a test can see what a client does
// with a store that no longer answers.
func (s *Server) Stop() { s.once.Do(s.stop) }

// Start runs a server in this process, with an in-memory backend and the bucket
// DefaultBucket, until the test ends. It sets the AWS credential variables of Env
// for the test (t.Setenv: not for parallel tests).
func Start(t testing.TB) *Server {
	t.Helper()
	for _, kv := range Env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	backend := s3mem.New()
	if err := backend.CreateBucket(DefaultBucket); err != nil {
		t.Fatalf("s3test: create bucket: %v", err)
	}
	faker := gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog()))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("s3test: listen: %v", err)
	}
	srv := &http.Server{Handler: faker.Server()}
	go srv.Serve(ln)
	s := &Server{Endpoint: "http://" + ln.Addr().String(), Bucket: DefaultBucket, stop: func() { srv.Close() }}
	t.Cleanup(s.Stop)
	return s
}

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// Build compiles ./s3server once per test binary and returns its path.
func Build(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "s3test")
		if err != nil {
			buildErr = err
			return
		}
		_, file, _, _ := runtime.Caller(0)
		binary = filepath.Join(dir, "s3server")
		cmd := exec.Command("go", "build", "-o", binary, ".")
		cmd.Dir = filepath.Join(filepath.Dir(file), "s3server")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = &buildError{err: err, out: string(out)}
		}
	})
	if buildErr != nil {
		t.Fatalf("s3test: build the S3 server: %v", buildErr)
	}
	return binary
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

// Ready is the line s3server prints on stdout once it serves.
type Ready struct {
	Endpoint string `json:"endpoint"`
	Bucket   string `json:"bucket"`
	URL      string `json:"url"`
}

// StartProcess runs s3server in its own process until the test ends; args are its
// flags (-dir DIR keeps the objects on disk, so a restarted server has them). The
// process is killed when the test ends; Stop kills it sooner. Clients need Env.
func StartProcess(t testing.TB, args ...string) *Server {
	t.Helper()
	cmd := exec.Command(Build(t), append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("s3test: start the S3 server: %v", err)
	}
	stop := func() { cmd.Process.Kill(); cmd.Wait() }
	line, err := bufio.NewReader(out).ReadString('\n')
	var r Ready
	if err == nil {
		err = json.Unmarshal([]byte(line), &r)
	}
	if err != nil {
		stop()
		t.Fatalf("s3test: the S3 server did not say where it serves (%q): %v", line, err)
	}
	s := &Server{Endpoint: r.Endpoint, Bucket: r.Bucket, stop: stop}
	t.Cleanup(s.Stop)
	return s
}
