-- Races and co-op games on the board page, played by the people in one
-- Discord Activity instance (or a local room): instance_id is it ('' for
-- one played in chat). An instance has at most one open race and one open
-- co-op game at a time (whoever opens it first; the others join it).
ALTER TABLE races ADD COLUMN instance_id TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX races_instance_open ON races (instance_id, kind)
	WHERE instance_id <> '' AND status IN ('lobby', 'running');
