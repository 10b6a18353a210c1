// Command s3server is an S3-compatible server for tests (gofakes3): it listens on
// -addr, creates the buckets named by -bucket, keeps objects in memory or, with
// -dir, in a directory (so a restarted server still has them), and prints one JSON
// line on stdout once it serves: {"endpoint": …, "bucket": …, "url": …}, url being
// the gocloud blob URL of the first bucket. It runs until SIGINT or SIGTERM.
//
// Clients sign with any credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY
// must be set for the SDK; the server checks no signature).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3afero"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/spf13/afero"

	"github.com/toolpipe/toolpipe/internal/s3test"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "s3server:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:0", "the address to listen on")
	buckets := flag.String("bucket", s3test.DefaultBucket, "the buckets to create, comma-separated")
	dir := flag.String("dir", "", "keep objects in this directory instead of memory")
	verbose := flag.Bool("v", false, "log every request on stderr")
	flag.Parse()

	var backend gofakes3.Backend
	if *dir == "" {
		backend = s3mem.New()
	} else {
		if err := os.MkdirAll(*dir, 0o700); err != nil {
			return err
		}
		fs, err := s3afero.MultiBucket(afero.NewBasePathFs(afero.NewOsFs(), *dir))
		if err != nil {
			return err
		}
		backend = fs
	}
	names := strings.Split(*buckets, ",")
	for _, b := range names {
		if err := backend.CreateBucket(b); err != nil && !gofakes3.HasErrorCode(err, gofakes3.ErrBucketAlreadyExists) {
			return fmt.Errorf("create bucket %s: %w", b, err)
		}
	}
	log := gofakes3.DiscardLog()
	if *verbose {
		log = gofakes3.GlobalLog()
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: gofakes3.New(backend, gofakes3.WithLogger(log)).Server()}
	endpoint := "http://" + ln.Addr().String()
	line, _ := json.Marshal(s3test.Ready{Endpoint: endpoint, Bucket: names[0], URL: s3test.BucketURL(endpoint, names[0])})
	fmt.Println(string(line))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); srv.Close() }()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		return err
	}
	return nil
}
