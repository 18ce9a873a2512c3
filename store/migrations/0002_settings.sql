-- Settings of the whole bot, shared by every shard that uses this database:
-- the daily secret, for one. A value, once stored, is never changed by the
-- bot, so every process reads the same one.
CREATE TABLE settings (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;
