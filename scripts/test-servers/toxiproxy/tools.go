//go:build tools

// Toxiproxy 2.12 (Shopify/toxiproxy) for the chaos harness: a TCP proxy in front of each server whose
// faults (latency, resets, a partition) a test switches over its HTTP API. Nothing here is compiled
// into the service: test/support/servers/test-servers.ts runs
// `go build github.com/Shopify/toxiproxy/v2/cmd/server` in this module, which pins the version.
package tools

import _ "github.com/Shopify/toxiproxy/v2/cmd/server"
