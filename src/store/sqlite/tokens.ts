/** People's tokens on SQLite (the port: store/tokens.ts): a table outside the log and the projections. */
import { Effect } from "effect"
import type { TokenRow, TokensApi } from "../tokens.js"
import type { Db } from "./database.js"
import type { LedgerStore } from "./ledger-store.js"

/** Made with the log's tables (schema.ts); a rebuild never touches it, an export never reads it. */
export const createTokens = (db: Db): void =>
  void db.exec(`
    CREATE TABLE IF NOT EXISTS tokens (
      hash TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      admin INTEGER NOT NULL,
      agent INTEGER NOT NULL,
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX IF NOT EXISTS tokens_name ON tokens(name);
  `)

interface Row {
  hash: string
  name: string
  admin: number
  agent: number
  created_at: string
}

export const sqliteTokens = (store: LedgerStore): TokensApi => ({
  // One statement each, committed on its own: a token is no part of any write of the log.
  add: (row) =>
    Effect.sync(
      () =>
        void store.db
          .prepare("INSERT INTO tokens (hash, name, admin, agent, created_at) VALUES (?, ?, ?, ?, ?)")
          .run(row.hash, row.name, row.admin ? 1 : 0, row.agent ? 1 : 0, row.createdAt)
    ),
  list: Effect.sync(() => store.read((db) => (db.prepare("SELECT * FROM tokens ORDER BY created_at, rowid").all() as Row[]).map(rowToToken))),
  revoke: (name) => Effect.sync(() => store.db.prepare("DELETE FROM tokens WHERE name = ?").run(name).changes)
})

const rowToToken = (row: Row): TokenRow => ({ hash: row.hash, name: row.name, admin: row.admin === 1, agent: row.agent === 1, createdAt: row.created_at })
