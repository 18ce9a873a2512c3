package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// BackupInfo says what a backup holds.
type BackupInfo struct {
	Path          string
	Bytes         int64
	SchemaVersion int
	Games         int // games of every status
	Playing       int // of them, games still being played
}

// Backup writes a copy of the SQLite database file at path to the file
// dest while the bot (in this process or others) goes on reading and
// writing: VACUUM INTO copies one read snapshot, so the copy holds every
// transaction committed before it began and none after, and writers don't
// wait for it (WAL). The database is not opened as a Store, so nothing in
// it changes (no migration, whatever the versions), and never created. The copy
// is written beside dest, checked (PRAGMA integrity_check), synced and
// only then linked to dest, so dest is the whole backup or nothing; dest
// must not exist yet.
//
// To restore, stop the bot, copy the backup over the database file and
// delete the database's -wal and -shm files beside it (they belong to the
// old file).
func Backup(ctx context.Context, path, dest string) (BackupInfo, error) {
	fail := func(err error) (BackupInfo, error) {
		return BackupInfo{}, fmt.Errorf("back up %s to %s: %w", path, dest, err)
	}
	if dest == "" {
		return fail(fmt.Errorf("%w: no file named", ErrInvalid))
	}
	if _, err := os.Lstat(dest); err == nil {
		return fail(fmt.Errorf("%w: %s already exists (choose a new name, or remove it first)", ErrInvalid, dest))
	}
	if _, err := os.Stat(path); err != nil {
		return fail(err) // SQLite would only say "unable to open"
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".*.tmp")
	if err != nil {
		return fail(err)
	}
	tmpName := tmp.Name()
	tmp.Close()
	os.Remove(tmpName) // VACUUM INTO wants a new file; the name was only reserved
	defer os.Remove(tmpName)

	// Read-write (mode=rw never creates the file), not read-only: the last
	// connection to close then removes the -wal and -shm files.
	src, err := openFile(path, "rw")
	if err != nil {
		return fail(err)
	}
	defer src.Close()
	if _, err := src.ExecContext(ctx, `VACUUM INTO $1`, tmpName); err != nil {
		return fail(classify(err, sqliteCause))
	}
	info, err := checkBackup(ctx, tmpName)
	if err != nil {
		return fail(err)
	}
	if err := syncFile(tmpName); err != nil {
		return fail(err)
	}
	// Link, not rename: it fails if dest appeared meanwhile.
	if err := os.Link(tmpName, dest); err != nil {
		return fail(err)
	}
	if err := syncFile(filepath.Dir(dest)); err != nil {
		return fail(err)
	}
	info.Path = dest
	return info, nil
}

// openFile opens the existing SQLite file at path in mode ("ro" or
// "rw"), waiting on other processes' locks like the store does.
func openFile(path, mode string) (*sql.DB, error) {
	return sql.Open("sqlite", fmt.Sprintf("file:%s?mode=%s&_pragma=busy_timeout(%d)", path, mode, busyTimeoutMS))
}

// checkBackup opens the database file at path read-only, checks its
// integrity and counts what it holds.
func checkBackup(ctx context.Context, path string) (BackupInfo, error) {
	db, err := openFile(path, "ro")
	if err != nil {
		return BackupInfo{}, err
	}
	defer db.Close()
	var check string
	if err := db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil {
		return BackupInfo{}, fmt.Errorf("check the copy: %w", err)
	}
	if check != "ok" {
		return BackupInfo{}, fmt.Errorf("the copy fails its integrity check: %s", check)
	}
	var info BackupInfo
	err = db.QueryRowContext(ctx, `SELECT (SELECT COALESCE(MAX(version), 0) FROM schema_version),
		(SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM games WHERE status = 'playing')`).
		Scan(&info.SchemaVersion, &info.Games, &info.Playing)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("read the copy: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return BackupInfo{}, err
	}
	info.Bytes = fi.Size()
	return info, nil
}

// syncFile flushes the file or folder at path to the disk.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return nil
}
