-- The PostgreSQL twin of ../0013_board_totals.sql.
-- Each player's fair daily results summed per server and level, kept in
-- the transaction that records a result: the all-time boards read these
-- (one row per player, server and level) instead of every result ever.
CREATE TABLE board_totals (
	user_id       TEXT    NOT NULL,
	guild_id      TEXT    NOT NULL,
	level         TEXT    NOT NULL,
	solves        INTEGER NOT NULL,
	total_ms      BIGINT  NOT NULL,
	best_ms       BIGINT  NOT NULL,
	hints         INTEGER NOT NULL,
	last_finished BIGINT  NOT NULL,
	PRIMARY KEY (user_id, guild_id, level)
);
CREATE INDEX board_totals_level ON board_totals (level, guild_id);
INSERT INTO board_totals (user_id, guild_id, level, solves, total_ms, best_ms, hints, last_finished)
	SELECT user_id, guild_id, level, COUNT(*), SUM(duration_ms), MIN(duration_ms), SUM(hints), MAX(finished_at)
	FROM daily_results WHERE flag = '' GROUP BY user_id, guild_id, level;

-- The week's and month's boards read a range of days: everything they
-- need is in this index, so no result row is read.
DROP INDEX daily_results_period;
CREATE INDEX daily_results_period ON daily_results (level, daily_date, flag, guild_id, user_id, duration_ms, hints, finished_at);
