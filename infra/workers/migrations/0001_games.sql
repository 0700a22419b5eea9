-- One row per game (functions/store/d1). Times are Unix seconds, with the
-- last write's nanoseconds apart, so every number fits a JS number.
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY NOT NULL,
  version INTEGER NOT NULL,
  state BLOB NOT NULL,
  updated_s INTEGER NOT NULL,
  updated_ns INTEGER NOT NULL,
  due INTEGER,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_due ON games (due) WHERE due IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_expires ON games (expires_at);
