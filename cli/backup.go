package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"sudokubot/store"
)

// runBackup copies the bot's SQLite database to a new file while the bot
// keeps running.
func runBackup(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags(stdio, "backup", "FILE",
		"The database is DATABASE_PATH (default "+store.DefaultPath+"). The bot may keep running: the copy\n"+
			"is one consistent moment, taken without holding up its writes, checked, and written\n"+
			"to FILE only once whole. FILE must not exist yet.\n"+
			"\n"+
			"To restore: stop the bot, copy FILE over the database file, delete the database's\n"+
			"-wal and -shm files beside it, start the bot.\n"+
			"With DATABASE_URL (PostgreSQL), use pg_dump and pg_restore instead (see the README).")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return fs.usageError("want one FILE to write the backup to, got %d arguments", fs.NArg())
	}
	dest := fs.Arg(0)
	if _, err := os.Lstat(dest); err == nil {
		return fs.usageError("%s already exists: choose a new file name", dest)
	}
	if stdio.getenv("DATABASE_URL") != "" {
		fmt.Fprintln(stdio.Stderr, "sudokubot backup: DATABASE_URL is set: back up PostgreSQL with pg_dump (see the README's Backups section)")
		return exitFail
	}
	path := stdio.getenv("DATABASE_PATH")
	if path == "" {
		path = store.DefaultPath
	}
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot backup: no database to back up at %s (set DATABASE_PATH to the bot's database): %v\n", path, errors.Unwrap(err))
		return exitFail
	}
	info, err := store.Backup(ctx, path, dest)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot backup: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stdio.Stdout, "backed up %s to %s: %d games (%d being played), schema version %d, %d bytes, integrity checked\n",
		path, info.Path, info.Games, info.Playing, info.SchemaVersion, info.Bytes)
	return exitOK
}
