-- Gateway Identify slots, one row per rate-limit bucket (shard id modulo
-- max_concurrency): when the bucket's next Identify may go, in Unix
-- milliseconds. Shared by every process, so processes starting together
-- still identify at Discord's pace.
CREATE TABLE identify_slots (
	bucket  INTEGER PRIMARY KEY,
	next_at BIGINT  NOT NULL
);
