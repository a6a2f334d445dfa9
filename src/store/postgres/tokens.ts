/** People's tokens on PostgreSQL (the port: store/tokens.ts): the `tokens` table of schema.ts, outside the log. */
import { Effect } from "effect"
import type { TokenRow, TokensApi } from "../tokens.js"
import type { PgLedger } from "./pg-ledger.js"

interface Row {
  hash: string
  name: string
  admin: boolean
  agent: boolean
  created_at: string
}

export const pgTokens = (ledger: PgLedger): TokensApi => ({
  // One statement each, committed on its own: a token is no part of any write of the log.
  add: (row) =>
    Effect.sync(
      () =>
        void ledger.db.execute("INSERT INTO tokens (hash, name, admin, agent, created_at) VALUES ($1, $2, $3, $4, $5)", [
          row.hash,
          row.name,
          row.admin,
          row.agent,
          row.createdAt
        ])
    ),
  list: Effect.sync(() =>
    ledger.read((db) =>
      db
        .query<Row>("SELECT hash, name, admin, agent, created_at FROM tokens ORDER BY created_at, hash")
        .map((r) => ({ hash: r.hash, name: r.name, admin: r.admin, agent: r.agent, createdAt: r.created_at }))
    )
  ),
  revoke: (name) => Effect.sync(() => ledger.db.execute("DELETE FROM tokens WHERE name = $1", [name]))
})
