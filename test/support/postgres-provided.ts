/**
 * What postgres-setup.ts (vitest's main process) hands every test worker about PostgreSQL,
 * through vitest's provide/inject: exactly one of the three cases holds.
 */
export type PostgresProvided =
  /** MEMLEDGER_TEST_PG=off: the PostgreSQL tests skip. */
  | { readonly kind: "off" }
  /** A server the tests may use: a superuser URL (it creates and drops databases). */
  | { readonly kind: "server"; readonly url: string }
  /** No server, and why: the PostgreSQL tests fail with this message rather than skip. */
  | { readonly kind: "missing"; readonly error: string }

export const PROVIDED_KEY = "memledgerPostgres"

declare module "vitest" {
  export interface ProvidedContext {
    memledgerPostgres: PostgresProvided
  }
}
