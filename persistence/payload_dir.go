package persistence

import "github.com/toolpipe/toolpipe/internal/statedir"

// PayloadDirName is the directory of the state directory that holds the payload
// store (NewPayloadDriver): every client and worker of the state directory reads
// and writes payloads too large for history there.
const PayloadDirName = statedir.PayloadsDir
