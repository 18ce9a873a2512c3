-- The PostgreSQL twin of ../0011_rating_order.sql.
-- A rated game's place in its player's history (1 for their first): the
-- history reads in the order the ratings changed, whatever the clocks of
-- the processes that rated them said.
ALTER TABLE rating_history ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
DROP INDEX rating_history_user;
CREATE INDEX rating_history_user ON rating_history (user_id, seq);
