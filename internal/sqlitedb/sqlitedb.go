// Package sqlitedb opens the SQLite files of the embedded adapters (the kv,
// the storage) the one way that makes them safe for several processes at
// once: WAL, a busy timeout, immediate write transactions, pure-Go driver.
package sqlitedb

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver
)

// BusyTimeout is how long a write waits for another process's write lock.
const BusyTimeout = 10 * time.Second

// Open opens (or creates) the SQLite file at path, creating its parent
// folder, and returns the database and the file's absolute path.
func Open(path string) (*sql.DB, string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", err
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, "", err
	}
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds()))
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "NORMAL") // durable at checkpoints; WAL keeps the file consistent
	q.Set("_txlock", "immediate")
	// A file: URI, so a path holding '?' or '#' is escaped, not cut.
	dsn := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}).String()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, "", err
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	db.SetConnMaxIdleTime(time.Minute)
	return db, abs, nil
}
