-- The lists (functions/store/d1, docs/lists.md): one row per item that is
-- in a list (an open game in the room, a player on a leaderboard), written
-- in the same batch as its game row.
CREATE TABLE IF NOT EXISTS entries (
  id TEXT PRIMARY KEY NOT NULL,
  list TEXT NOT NULL,
  rank TEXT NOT NULL,
  card BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_list ON entries (list, rank, id);
