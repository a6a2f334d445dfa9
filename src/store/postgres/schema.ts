/**
 * The log and the projections in a PostgreSQL database: the same tables and columns as the
 * SQLite store (so rows read back through the same mappers, projection-rows.ts), in PostgreSQL's
 * types, plus the keyword index's tables (keyword-index.ts). Made once, under an advisory lock,
 * by the first process to open an empty database; a database whose projections were built at
 * another version (or lag the log) is rebuilt, as SQLite's are.
 */
import type { SyncPg } from "./sync-client.js"

/**
 * Bumped when a projection's table changes shape: an older database has its projections rebuilt
 * (2: private memories; 3: the covering keyword index; 4: keyword rows read best first; 5: the
 * overview's counts, the evidence's `one_failure_at_ms`; 6: outcomes naming a memory made
 * private, counted apart; 7: the keyword index's term frequencies in columns of their own).
 */
export const PG_SCHEMA_VERSION = "7"

/**
 * Bumped when the log's own tables (the DDL below, outside the projections) change shape: an
 * older database runs the DDL again, which only adds what it lacks (2: the events' `author`; 3: `tokens`;
 * 4: `change_marks`, the memory each change to one memory changed, for the vectors' sync).
 */
export const PG_LOG_VERSION = "4"

/** Whether the log's tables have this version's shape. */
export const logCurrent = (db: SyncPg): boolean => metaValue(db, "log") === PG_LOG_VERSION

/** The lock every write of every process takes (pg_advisory_xact_lock): one writer at a time, as SQLite's. */
export const WRITE_LOCK = 0x6d656d6c

/** The channel each write notifies on commit (pg-event-log.ts). */
export const NOTICE_CHANNEL = "memledger_events"

/** Makes the log's tables, or brings an older database's up to this shape; idempotent. */
export const createSchema = (db: SyncPg): void => {
  db.execute(DDL)
  setMeta(db, "log", PG_LOG_VERSION)
}

const DDL = `
CREATE TABLE IF NOT EXISTS memledger_meta (name text COLLATE "C" PRIMARY KEY, value text COLLATE "C" NOT NULL);
CREATE TABLE IF NOT EXISTS events (
  seq bigint PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  type text COLLATE "C" NOT NULL,
  version integer NOT NULL,
  recorded_at text COLLATE "C" NOT NULL,
  origin text COLLATE "C" NOT NULL,
  agent text COLLATE "C" NOT NULL,
  payload text COLLATE "C",
  payload_hash text COLLATE "C" NOT NULL,
  hash text COLLATE "C" NOT NULL,
  task text COLLATE "C"
);
ALTER TABLE events ADD COLUMN IF NOT EXISTS author text COLLATE "C";
CREATE INDEX IF NOT EXISTS events_origin ON events(origin, seq);
CREATE INDEX IF NOT EXISTS events_task ON events(task) WHERE task IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_type ON events(type, seq);
CREATE TABLE IF NOT EXISTS event_memories (
  memory_id text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
  PRIMARY KEY (memory_id, seq)
);
CREATE OR REPLACE FUNCTION memledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN RAISE EXCEPTION 'the event log is append-only'; END IF;
  IF NEW.payload IS NOT NULL OR NEW.seq IS DISTINCT FROM OLD.seq OR NEW.id IS DISTINCT FROM OLD.id
     OR NEW.type IS DISTINCT FROM OLD.type OR NEW.version IS DISTINCT FROM OLD.version
     OR NEW.recorded_at IS DISTINCT FROM OLD.recorded_at OR NEW.origin IS DISTINCT FROM OLD.origin
     OR NEW.agent IS DISTINCT FROM OLD.agent OR NEW.author IS DISTINCT FROM OLD.author
     OR NEW.payload_hash IS DISTINCT FROM OLD.payload_hash
     OR NEW.hash IS DISTINCT FROM OLD.hash THEN
    RAISE EXCEPTION 'the event log is append-only; only purge may erase a payload';
  END IF;
  RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS events_append_only ON events;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events FOR EACH ROW EXECUTE FUNCTION memledger_append_only();
CREATE TABLE IF NOT EXISTS chain_break (
  id integer PRIMARY KEY CHECK (id = 1),
  broken_at bigint NOT NULL,
  reason text COLLATE "C" NOT NULL,
  found_at text COLLATE "C" NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
  hash text COLLATE "C" PRIMARY KEY,
  name text COLLATE "C" NOT NULL,
  admin boolean NOT NULL,
  agent boolean NOT NULL,
  created_at text COLLATE "C" NOT NULL
);
CREATE INDEX IF NOT EXISTS tokens_name ON tokens(name);
CREATE TABLE IF NOT EXISTS projection_checkpoints (name text COLLATE "C" PRIMARY KEY, version text COLLATE "C" NOT NULL, last_seq bigint NOT NULL);
CREATE TABLE IF NOT EXISTS content_changes (id integer PRIMARY KEY CHECK (id = 1), n bigint NOT NULL);
INSERT INTO content_changes (id, n) VALUES (1, 0) ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS change_marks (change bigint PRIMARY KEY, memory_id text COLLATE "C" NOT NULL);
`

/** The keyword index's statistics of an empty collection, one row per index. */
const EMPTY_TOTALS = "INSERT INTO keyword_totals (index_name, docs, tokens) VALUES ('memories', 0, 0), ('cues', 0, 0);"

/** The projections' tables, emptied and filled again by a rebuild (rebuild.ts). */
export const PROJECTION_TABLES = [
  "memories",
  "evidence",
  "conversations",
  "cue_states",
  "learned_cues",
  "keyword_terms",
  "keyword_df",
  "keyword_totals",
  "memory_counts",
  "outcome_days",
  "private_outcomes"
]

/** The projections, made when a database has none, or has them in another shape. */
export const PROJECTION_DDL = `
CREATE TABLE memories (
  key bigint PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  content text COLLATE "C" NOT NULL,
  content_key text COLLATE "C" NOT NULL,
  category text COLLATE "C" NOT NULL,
  scope text COLLATE "C" NOT NULL,
  project text COLLATE "C",
  tags text COLLATE "C" NOT NULL,
  cues text COLLATE "C" NOT NULL,
  source text COLLATE "C" NOT NULL,
  status text COLLATE "C" NOT NULL,
  instruction_like smallint NOT NULL,
  confidence double precision NOT NULL,
  confirmations integer NOT NULL,
  confirmed_by_person smallint NOT NULL,
  stated_in text COLLATE "C" NOT NULL,
  superseded_by text COLLATE "C",
  forgotten smallint NOT NULL,
  forgotten_reason text COLLATE "C",
  distinct_from text COLLATE "C" NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  updated_at text COLLATE "C" NOT NULL,
  origin text COLLATE "C" NOT NULL,
  agent text COLLATE "C" NOT NULL,
  last_seq bigint NOT NULL,
  private_to text COLLATE "C"
);
CREATE INDEX memories_restatement ON memories(content_key);
CREATE INDEX memories_project ON memories(project, category);
CREATE INDEX memories_origin ON memories(origin);
CREATE TABLE evidence (
  memory_id text COLLATE "C" PRIMARY KEY,
  worked double precision NOT NULL,
  failed double precision NOT NULL,
  anchor_ms bigint NOT NULL,
  worked_count integer NOT NULL,
  failed_count integer NOT NULL,
  partial_count integer NOT NULL,
  event_ids text COLLATE "C" NOT NULL,
  -- When the decayed failed sum is 1 (evidence-state.ts oneFailureAtMs): the gate's index.
  one_failure_at_ms double precision
);
CREATE INDEX evidence_gate ON evidence(one_failure_at_ms) INCLUDE (memory_id, worked, failed, anchor_ms);
CREATE TABLE conversations (
  origin text COLLATE "C" PRIMARY KEY,
  events integer NOT NULL,
  memories_added integer NOT NULL,
  outcomes integer NOT NULL,
  first_at text COLLATE "C" NOT NULL,
  last_at text COLLATE "C" NOT NULL,
  forgotten smallint NOT NULL,
  purged_events integer NOT NULL,
  authors text COLLATE "C" NOT NULL,
  private_authors text COLLATE "C" NOT NULL
);
-- A write asks which conversations are forgotten: a few, among every conversation there was.
CREATE INDEX conversations_forgotten ON conversations(origin) WHERE forgotten = 1;
-- The overview's counts (count-state.ts): memories per group, kept under one key of all the
-- group's columns (two may be null), and outcome reports per UTC day and conversation.
CREATE TABLE memory_counts (
  grp text COLLATE "C" PRIMARY KEY,
  category text COLLATE "C" NOT NULL,
  project text COLLATE "C",
  status text COLLATE "C" NOT NULL,
  forgotten smallint NOT NULL,
  superseded smallint NOT NULL,
  private_to text COLLATE "C",
  n integer NOT NULL
);
CREATE TABLE outcome_days (
  day text COLLATE "C" NOT NULL,
  origin text COLLATE "C" NOT NULL,
  worked integer NOT NULL,
  failed integer NOT NULL,
  partial integer NOT NULL,
  PRIMARY KEY (day, origin)
);
-- Outcomes naming a memory some event made private: who sees each is decided when it is read.
CREATE TABLE private_outcomes (
  seq bigint PRIMARY KEY,
  day text COLLATE "C" NOT NULL,
  origin text COLLATE "C" NOT NULL,
  outcome text COLLATE "C" NOT NULL,
  memory_ids text COLLATE "C" NOT NULL
);
CREATE INDEX private_outcomes_day ON private_outcomes(day);
CREATE TABLE cue_states (memory_id text COLLATE "C" PRIMARY KEY, state text COLLATE "C" NOT NULL);
CREATE TABLE learned_cues (
  key bigserial PRIMARY KEY,
  memory_id text COLLATE "C" NOT NULL,
  text text COLLATE "C" NOT NULL,
  project text COLLATE "C",
  weight double precision NOT NULL,
  anchor_ms bigint NOT NULL,
  origin text COLLATE "C" NOT NULL,
  outcome_event_id text COLLATE "C" NOT NULL,
  recall_event_id text COLLATE "C" NOT NULL,
  learned_at text COLLATE "C" NOT NULL
);
CREATE INDEX learned_cues_memory ON learned_cues(memory_id);
CREATE TABLE keyword_terms (
  index_name text COLLATE "C" NOT NULL,
  term text COLLATE "C" NOT NULL,
  place text COLLATE "C" NOT NULL,
  category text COLLATE "C" NOT NULL,
  key bigint NOT NULL,
  tokens integer NOT NULL,
  -- The term's count in each weighted column (the cues' index has two; tf3 to tf5 are 0): five columns, not an array, cut two common words' statement by a quarter.
  tf1 real NOT NULL, tf2 real NOT NULL, tf3 real NOT NULL, tf4 real NOT NULL, tf5 real NOT NULL,
  -- The term's BM25 share in this document with every column weighted 1 and the index's
  -- reference length: the order a search reads a term's rows in (keyword-search.ts).
  impact float8 NOT NULL,
  -- A search reads a term's rows in its places from this index alone (an index-only scan once
  -- vacuumed), not from rows scattered over the table in the order memories were added.
  PRIMARY KEY (index_name, term, place, key) INCLUDE (tokens, tf1, tf2, tf3, tf4, tf5, category)
);
CREATE INDEX keyword_terms_key ON keyword_terms(index_name, key);
CREATE INDEX keyword_terms_impact ON keyword_terms(index_name, term, place, impact DESC) INCLUDE (key, category);
CREATE TABLE keyword_df (index_name text COLLATE "C" NOT NULL, term text COLLATE "C" NOT NULL, df integer NOT NULL, PRIMARY KEY (index_name, term));
-- ref_avg: the average length impacts were computed with, set when the index was last empty.
CREATE TABLE keyword_totals (index_name text COLLATE "C" PRIMARY KEY, docs bigint NOT NULL, tokens bigint NOT NULL, ref_avg float8);
${EMPTY_TOTALS}
`

export const DROP_PROJECTIONS = `DROP TABLE IF EXISTS ${PROJECTION_TABLES.join(", ")};`

/**
 * Empties the projections row by row, for a rebuild of tables already in this shape. Unlike DROP
 * (or TRUNCATE) this is MVCC-safe and takes no lock a reader's conflicts with: a unit of reads on
 * another connection goes on seeing the old rows until the rebuild commits, then sees the new
 * ones, never empty tables, and neither waits for the other.
 */
export const CLEAR_PROJECTIONS = `${PROJECTION_TABLES.map((table) => `DELETE FROM ${table};`).join("\n")}\n${EMPTY_TOTALS}`

export const metaValue = (db: SyncPg, name: string): string | undefined =>
  db.one<{ value: string }>("SELECT value FROM memledger_meta WHERE name = $1", [name])?.value

export const setMeta = (db: SyncPg, name: string, value: string): void =>
  db.run("INSERT INTO memledger_meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value", [name, value])
