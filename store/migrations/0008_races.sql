-- Races and co-op games in a thread (/race, /play together). A race is a
-- lobby, then a race run from start_at (the end of its countdown), then
-- over; its state changes are conditional UPDATEs, so of two processes the
-- first to claim one wins. Times are Unix milliseconds (UTC).
CREATE TABLE races (
	id           INTEGER PRIMARY KEY,
	kind         TEXT    NOT NULL DEFAULT 'race' CHECK (kind IN ('race', 'together')),
	guild_id     TEXT    NOT NULL DEFAULT '',
	channel_id   TEXT    NOT NULL DEFAULT '',
	-- the lobby message, the thread made from it ('' when the race runs in
	-- the channel), and the scoreboard message in it
	lobby_id     TEXT    NOT NULL DEFAULT '',
	thread_id    TEXT    NOT NULL DEFAULT '',
	board_id     TEXT    NOT NULL DEFAULT '',
	starter_id   TEXT    NOT NULL,
	starter_name TEXT    NOT NULL DEFAULT '',
	-- a duel: only this member may join
	rival_id     TEXT    NOT NULL DEFAULT '',
	puzzle       TEXT    NOT NULL,
	shape        TEXT    NOT NULL,
	solution     TEXT    NOT NULL DEFAULT '',
	level        TEXT    NOT NULL DEFAULT '',
	title        TEXT    NOT NULL DEFAULT '',
	status       TEXT    NOT NULL DEFAULT 'lobby'
	             CHECK (status IN ('lobby', 'running', 'over', 'cancelled')),
	created_at   INTEGER NOT NULL,
	start_at     INTEGER,
	ended_at     INTEGER,
	-- together: the one shared game
	game_id      INTEGER
);
CREATE INDEX races_status ON races (status);

-- The players of a race (or the movers of a co-op game), each with their
-- own game once they open their board.
CREATE TABLE race_players (
	race_id      INTEGER NOT NULL REFERENCES races (id) ON DELETE CASCADE,
	user_id      TEXT    NOT NULL,
	user_name    TEXT    NOT NULL DEFAULT '',
	joined_at    INTEGER NOT NULL,
	game_id      INTEGER,
	status       TEXT    NOT NULL DEFAULT 'joined'
	             CHECK (status IN ('joined', 'finished', 'left', 'idle')),
	last_move_at INTEGER,
	finished_at  INTEGER,
	-- wrong digits placed (counted when placed; an undo keeps the count)
	mistakes     INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (race_id, user_id)
);

-- A race player's game knows its race.
ALTER TABLE games ADD COLUMN race_id INTEGER;

-- Who placed the value now in each cell of a co-op game (kept after the
-- finish, for "who placed what"); a move remembers the mover and the one
-- it replaced, so Undo gives the credit back.
CREATE TABLE cell_movers (
	game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	cell    INTEGER NOT NULL,
	user_id TEXT    NOT NULL,
	PRIMARY KEY (game_id, cell)
);
ALTER TABLE moves ADD COLUMN mover TEXT NOT NULL DEFAULT '';
ALTER TABLE moves ADD COLUMN prev_mover TEXT NOT NULL DEFAULT '';
