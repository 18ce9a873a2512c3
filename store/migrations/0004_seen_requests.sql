-- Signed HTTP interactions already served, kept until their signature's
-- timestamp is too old to be accepted anyway. Shared by every process, so
-- a captured request replayed to another process behind the same load
-- balancer is refused there too.
CREATE TABLE seen_requests (
	signature  TEXT    PRIMARY KEY,
	expires_at INTEGER NOT NULL
);
CREATE INDEX seen_requests_expiry ON seen_requests (expires_at);
