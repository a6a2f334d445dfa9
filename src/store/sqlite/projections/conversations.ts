/** The `conversations` projection: per origin, its contribution and whether it is forgotten. */
import type { Db } from "../database.js"
import { statement, type Writes } from "../statements.js"
import type { ConversationState } from "../../../projections/conversation-state.js"
import { conversationParams, rowToConversation, type ConversationRow } from "../../projection-rows.js"
import type { Projection } from "./projection.js"

export const conversationsProjection: Projection = {
  name: "conversations",
  // 2: authors and private_authors, who wrote in it (conversation-state.ts).
  version: 2,
  create: (db) =>
    db.exec(`
      CREATE TABLE IF NOT EXISTS conversations (
        origin TEXT PRIMARY KEY,
        events INTEGER NOT NULL,
        memories_added INTEGER NOT NULL,
        outcomes INTEGER NOT NULL,
        first_at TEXT NOT NULL,
        last_at TEXT NOT NULL,
        forgotten INTEGER NOT NULL,
        purged_events INTEGER NOT NULL,
        authors TEXT NOT NULL,
        private_authors TEXT NOT NULL
      ) STRICT;
      CREATE INDEX IF NOT EXISTS conversations_forgotten ON conversations(forgotten) WHERE forgotten = 1;
    `),
  drop: (db) => db.exec("DROP TABLE IF EXISTS conversations")
}

export const loadConversation = (db: Db, origin: string): ConversationState | undefined => {
  const row = statement(db, "SELECT * FROM conversations WHERE origin = ?").get(origin) as ConversationRow | undefined
  return row && rowToConversation(row)
}

export const listConversations = (db: Db): ConversationState[] =>
  (statement(db, "SELECT * FROM conversations ORDER BY last_at DESC, origin").all() as ConversationRow[]).map(rowToConversation)

export const forgottenOrigins = (db: Db): Set<string> =>
  new Set((statement(db, "SELECT origin FROM conversations WHERE forgotten = 1").all() as { origin: string }[]).map((r) => r.origin))

export const writeConversation = (to: Writes, c: ConversationState): void => {
  to.run(
    `INSERT INTO conversations (origin, events, memories_added, outcomes, first_at, last_at, forgotten, purged_events, authors, private_authors)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(origin) DO UPDATE SET events = excluded.events, memories_added = excluded.memories_added,
       outcomes = excluded.outcomes, first_at = excluded.first_at, last_at = excluded.last_at,
       forgotten = excluded.forgotten, purged_events = excluded.purged_events,
       authors = excluded.authors, private_authors = excluded.private_authors`,
    conversationParams(c)
  )
}
