/**
 * The PostgreSQL test harness itself, on the real server: what every PostgreSQL test relies on.
 * Fresh databases are separate and empty, pgvector works (the store's vector search needs it),
 * and LISTEN/NOTIFY reaches another connection (the store's change feed needs it).
 */
import { Client } from "pg"
import { afterAll, expect, test } from "vitest"
import { describePostgres, dropTestDatabases, serverUrl, testPostgres, vectorAvailable } from "./postgres.js"

const connect = async (url: string): Promise<Client> => {
  const client = new Client({ connectionString: url })
  await client.connect()
  return client
}

const query = async (url: string, sql: string): Promise<Array<Record<string, unknown>>> => {
  const client = await connect(url)
  try {
    return (await client.query(sql)).rows
  } finally {
    await client.end()
  }
}

/** Tables, views, sequences and extensions a database holds beyond what every database has. */
const contents = async (url: string): Promise<string[]> => {
  const relations = await query(
    url,
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`
  )
  const extensions = await query(url, "SELECT extname AS name FROM pg_extension WHERE extname <> 'plpgsql'")
  return [...relations, ...extensions].map((row) => String(row.name))
}

describePostgres("the PostgreSQL test harness", () => {
  afterAll(dropTestDatabases)

  test("two fresh databases are distinct and empty, and what one holds the other does not", async () => {
    const [a, b] = await Promise.all([testPostgres(), testPostgres()])
    expect(a.name).not.toBe(b.name)
    expect((await query(a.url, "SELECT current_database() AS db"))[0]?.db).toBe(a.name)
    expect((await query(b.url, "SELECT current_database() AS db"))[0]?.db).toBe(b.name)
    expect(await contents(a.url)).toEqual([])
    expect(await contents(b.url)).toEqual([])

    await query(a.url, "CREATE TABLE only_in_a (id int)")
    expect(await contents(a.url)).toEqual(["only_in_a"])
    expect(await contents(b.url)).toEqual([])
  })

  test("drop removes the database, even with a connection still open to it", async () => {
    const db = await testPostgres()
    const left = await connect(db.url)
    left.on("error", () => {}) // the server ends this connection; that is the point
    await db.drop()
    const rows = await query(serverUrl(), `SELECT 1 FROM pg_database WHERE datname = '${db.name}'`)
    expect(rows).toEqual([])
    await db.drop() // a second drop (afterAll's) is harmless
  })

  test("pgvector: CREATE EXTENSION vector works and <-> orders rows by distance", async () => {
    if (!(await vectorAvailable())) {
      throw new Error("the test server has no pgvector: run scripts/install-pgvector.sh as root (.ci/run does)")
    }
    const db = await testPostgres()
    const client = await connect(db.url)
    try {
      await client.query("CREATE EXTENSION vector")
      await client.query("CREATE TABLE items (name text, embedding vector(3))")
      await client.query(
        "INSERT INTO items VALUES ('far', '[10,10,10]'), ('near', '[1,1,1.5]'), ('exact', '[1,1,1]'), ('middle', '[3,1,1]')"
      )
      const rows = await client.query("SELECT name, embedding <-> '[1,1,1]' AS distance FROM items ORDER BY embedding <-> '[1,1,1]'")
      expect(rows.rows.map((row) => row.name)).toEqual(["exact", "near", "middle", "far"])
      expect(rows.rows.map((row) => Number(row.distance))).toEqual([0, 0.5, 2, Math.sqrt(243)])
    } finally {
      await client.end()
    }
  })

  test("LISTEN/NOTIFY delivers a payload from one connection to another", async () => {
    const db = await testPostgres()
    const [listener, notifier] = await Promise.all([connect(db.url), connect(db.url)])
    try {
      const received = new Promise<{ channel: string; payload: string | undefined }>((resolve) =>
        listener.on("notification", (message) => resolve({ channel: message.channel, payload: message.payload }))
      )
      await listener.query("LISTEN memledger_changes")
      await notifier.query("SELECT pg_notify('memledger_changes', '42')")
      expect(await received).toEqual({ channel: "memledger_changes", payload: "42" })
    } finally {
      await Promise.all([listener.end(), notifier.end()])
    }
  })
})
