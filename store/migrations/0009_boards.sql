-- Boards beyond one server and one day, and skill ratings.
-- A server's admins can keep the results solved there off the global
-- boards (1: listed, 0: kept off); it stays on its own boards.
ALTER TABLE guild_settings ADD COLUMN global_boards INTEGER NOT NULL DEFAULT 1;
-- A player can show as "anonymous player" on the global boards (1: hidden).
-- A player who only set this has time_zone and zone_floor ''.
ALTER TABLE players ADD COLUMN hide_name INTEGER NOT NULL DEFAULT 0;
-- The week's, month's and all-time boards read a range of days.
CREATE INDEX daily_results_period ON daily_results (daily_date, level);

-- Each player's Glicko-2 rating (package internal/glicko), as of their
-- last rated game.
CREATE TABLE ratings (
	user_id    TEXT    PRIMARY KEY,
	rating     REAL    NOT NULL,
	deviation  REAL    NOT NULL,
	volatility REAL    NOT NULL,
	games      INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);

-- One row per rated game: the primary key makes rating a game happen at
-- most once, whatever retries or processes.
CREATE TABLE rating_history (
	game_id       INTEGER PRIMARY KEY,
	user_id       TEXT    NOT NULL,
	rated_at      INTEGER NOT NULL,
	score         REAL    NOT NULL,
	puzzle_rating REAL    NOT NULL,
	prior         REAL    NOT NULL,
	rating        REAL    NOT NULL,
	deviation     REAL    NOT NULL
);
CREATE INDEX rating_history_user ON rating_history (user_id, rated_at);

-- The ratings of puzzles played by many (the dailies), seeded from their
-- Sudoku Explainer score and moved by every rated solve.
CREATE TABLE puzzle_ratings (
	puzzle     TEXT    PRIMARY KEY,
	rating     REAL    NOT NULL,
	deviation  REAL    NOT NULL,
	volatility REAL    NOT NULL,
	games      INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
