// Package searchattr is the one home of toolpipe's custom search attribute names:
// the keys a Turn and a Session upsert (package workflows), the ones the embedded
// server registers (package devserver) and scripts/clusterctl registers on a
// cluster, and the ones a client checks a namespace for before it lets a turn
// upsert them (Present).
//
// Ensure adds the ones a namespace lacks, for devserver and clusterctl alike.
//
// It is a leaf: it imports only the Temporal API (go.temporal.io/api: the attribute
// types and the operator service Ensure calls), so the small clusterctl tool and the
// workflows can both use it without linking the Temporal server or each other.
// DESIGN §10.
package searchattr
