-- A player's own settings: their time zone (an IANA name; their "today"
-- for the dailies is the date there) and zone_floor, the date they were on
-- when they last changed zone: their today never goes back before it, so a
-- change of zone can't reopen a day already passed.
CREATE TABLE players (
	user_id    TEXT    PRIMARY KEY,
	time_zone  TEXT    NOT NULL,
	zone_floor TEXT    NOT NULL,
	updated_at INTEGER NOT NULL
);
