-- Games in progress and finished. Times are Unix milliseconds (UTC); daily
-- dates are 'YYYY-MM-DD' UTC days.
CREATE TABLE games (
	id          INTEGER PRIMARY KEY,
	user_id     TEXT    NOT NULL,
	user_name   TEXT    NOT NULL DEFAULT '',
	guild_id    TEXT    NOT NULL DEFAULT '',
	channel_id  TEXT    NOT NULL DEFAULT '',
	puzzle      TEXT    NOT NULL,
	shape       TEXT    NOT NULL,
	solution    TEXT    NOT NULL DEFAULT '',
	level       TEXT    NOT NULL DEFAULT '',
	-- one byte per cell: the player's value, 0 when empty
	entries     BLOB    NOT NULL,
	-- four bytes (little endian) per cell: bit v-1 set = v pencilled in
	pencil      BLOB    NOT NULL,
	started_at  INTEGER NOT NULL,
	viewed_at   INTEGER,
	finished_at INTEGER,
	hints_used  INTEGER NOT NULL DEFAULT 0,
	hint_stage  INTEGER NOT NULL DEFAULT 0,
	checks_used INTEGER NOT NULL DEFAULT 0,
	moves_made  INTEGER NOT NULL DEFAULT 0,
	status      TEXT    NOT NULL DEFAULT 'playing'
	            CHECK (status IN ('playing', 'solved', 'gave_up')),
	daily_date  TEXT,
	daily_level TEXT,
	CHECK ((daily_date IS NULL) = (daily_level IS NULL))
);

-- One game per user and daily puzzle, so two quick clicks on "Play" resume
-- the same game instead of starting two.
CREATE UNIQUE INDEX games_daily ON games (user_id, daily_date, daily_level)
	WHERE daily_date IS NOT NULL;
CREATE INDEX games_user_status ON games (user_id, status);

-- Each move is a batch of cell changes with the values they replaced, for
-- undo. seq grows per game.
CREATE TABLE moves (
	game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seq         INTEGER NOT NULL,
	cell        INTEGER NOT NULL,
	prev_value  INTEGER NOT NULL,
	prev_pencil INTEGER NOT NULL,
	value       INTEGER NOT NULL,
	pencil      INTEGER NOT NULL,
	PRIMARY KEY (game_id, seq, cell)
) WITHOUT ROWID;

-- A solved daily, at most once per user, day and level: the primary key is
-- what makes recording idempotent under button mashing and shards.
CREATE TABLE daily_results (
	user_id     TEXT    NOT NULL,
	daily_date  TEXT    NOT NULL,
	level       TEXT    NOT NULL,
	user_name   TEXT    NOT NULL,
	guild_id    TEXT    NOT NULL,
	game_id     INTEGER NOT NULL REFERENCES games (id),
	duration_ms INTEGER NOT NULL,
	hints       INTEGER NOT NULL,
	checks      INTEGER NOT NULL,
	finished_at INTEGER NOT NULL,
	PRIMARY KEY (user_id, daily_date, level)
);
CREATE INDEX daily_results_board ON daily_results (guild_id, daily_date, level, duration_ms);

CREATE TABLE guild_settings (
	guild_id      TEXT    PRIMARY KEY,
	daily_channel TEXT    NOT NULL DEFAULT '',
	daily_hour    INTEGER NOT NULL DEFAULT 0 CHECK (daily_hour BETWEEN 0 AND 23),
	updated_at    INTEGER NOT NULL
);

-- Channels a server opted in to have watched for pasted grids.
CREATE TABLE watched_channels (
	guild_id   TEXT NOT NULL,
	channel_id TEXT NOT NULL,
	PRIMARY KEY (guild_id, channel_id)
) WITHOUT ROWID;

-- Daily posts claimed: the primary key makes posting idempotent across
-- restarts and shards.
CREATE TABLE posts (
	guild_id   TEXT    NOT NULL,
	channel_id TEXT    NOT NULL,
	post_date  TEXT    NOT NULL,
	claimed_at INTEGER NOT NULL,
	claimed_by TEXT    NOT NULL DEFAULT '',
	PRIMARY KEY (guild_id, channel_id, post_date)
) WITHOUT ROWID;
