-- Fair times: a finish faster than a person could solve, or the whole
-- solution entered in one or two moves, is kept but marked with the reason
-- (package commands decides it; '' means a fair finish). Marked results are
-- left off the leaderboards and the streaks, and listed by /daily flagged.
ALTER TABLE games ADD COLUMN flag TEXT NOT NULL DEFAULT '';
ALTER TABLE daily_results ADD COLUMN flag TEXT NOT NULL DEFAULT '';
CREATE INDEX daily_results_flagged ON daily_results (guild_id, finished_at) WHERE flag <> '';
