-- The archive: a past daily replayed (/daily play date:) is an ordinary
-- game that remembers which daily it is, so its board and finish can say
-- so; it records no daily result, so no leaderboard or streak counts it.
ALTER TABLE games ADD COLUMN archive_date TEXT;
