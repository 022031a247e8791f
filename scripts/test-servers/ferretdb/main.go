// FerretDB 1.24.2 for the test suite: a MongoDB wire-protocol server on SQLite or PostgreSQL, on loopback.
//
// `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2` builds but panics at start: its version
// package needs a version.txt that only FerretDB's own build generates. The embeddable package skips that
// check when the main module is not FerretDB's, so this ten-line main is the server the tests start.
package main

import (
	"context"
	"flag"
	"log"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	dir := flag.String("sqlite-dir", "", "directory of the SQLite databases")
	postgresql := flag.String("postgresql-url", "", "PostgreSQL URL of the database to keep the data in, instead of SQLite")
	flag.Parse()
	config := &ferretdb.Config{Listener: ferretdb.ListenerConfig{TCP: *listen}}
	switch {
	case *postgresql != "":
		config.Handler = "postgresql"
		config.PostgreSQLURL = *postgresql
	case *dir != "":
		config.Handler = "sqlite"
		config.SQLiteURL = "file:" + *dir + "/"
	default:
		log.Fatal("--sqlite-dir or --postgresql-url is required")
	}
	server, err := ferretdb.New(config)
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log.Printf("FerretDB listening on %s, data in %s%s", *listen, *dir, *postgresql)
	if err := server.Run(ctx); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}
