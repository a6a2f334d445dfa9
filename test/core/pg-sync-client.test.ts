/**
 * The synchronous PostgreSQL connection (sync-client.ts): a statement whose wait is given up
 * (it took longer than the connection waits: a lock held elsewhere, a dead server) runs on, and
 * its late answer is never taken for the answer of a statement sent after it; a batch of
 * queued writes is waited for statement by statement, however long the whole batch runs, and
 * travels with the read after it, as does one queued to run soon unless a turn of the event loop
 * comes first; inside a transaction block, queued statements are pipelined, outside one they go
 * one by one; and a statement used again is prepared on the server, but never inside
 * `unprepared`.
 */
import { fork } from "node:child_process"
import { once } from "node:events"
import { fileURLToPath } from "node:url"
import { afterAll, expect, it } from "vitest"
import { SyncPg } from "../../src/store/postgres/sync-client.js"
import { describePostgres, dropTestDatabases, testPostgres } from "../support/postgres.js"

const WAIT_MS = 300

describePostgres("a synchronous PostgreSQL connection", () => {
  afterAll(dropTestDatabases)

  it("answers each statement with its own rows, after giving up waiting on one", async () => {
    const db = SyncPg.connect((await testPostgres()).url, undefined, WAIT_MS)
    try {
      expect(() => db.query("SELECT pg_sleep(0.6) AS slept")).toThrow(`PostgreSQL did not answer within ${WAIT_MS / 1000} s`)
      // Long enough for the slow statement to end and its answer to come.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect(db.query("SELECT 'the next one' AS said")).toEqual([{ said: "the next one" }])
      expect(db.query("SELECT 2 AS n")).toEqual([{ n: 2 }])
    } finally {
      db.close()
    }
  })

  it("waits for a batch longer than its wait when each of the batch's statements answers within it", async () => {
    const db = SyncPg.connect((await testPostgres()).url, undefined, WAIT_MS)
    try {
      db.execute("CREATE TEMP TABLE slow_writes (n int)")
      for (const n of [1, 2, 3, 4]) db.run("INSERT INTO slow_writes SELECT $1::int FROM pg_sleep(0.15)", [n])
      db.flush()
      expect(db.query("SELECT n FROM slow_writes ORDER BY n")).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }])
    } finally {
      db.close()
    }
  })

  it("sends queued writes with the next read, in one round trip, and a failing write's error is the read's", async () => {
    const db = SyncPg.connect((await testPostgres()).url)
    try {
      db.execute("CREATE TEMP TABLE queued_writes (n int PRIMARY KEY)")
      const before = db.roundTrips
      db.run("BEGIN")
      for (const n of [1, 2, 3]) db.run("INSERT INTO queued_writes VALUES ($1)", [n])
      expect(db.query("SELECT count(*)::int AS n FROM queued_writes")).toEqual([{ n: 3 }])
      expect(db.roundTrips - before).toBe(1)

      db.run("INSERT INTO queued_writes VALUES ($1)", [1])
      db.run("INSERT INTO queued_writes VALUES ($1)", [4])
      expect(() => db.query("SELECT 'not reached' AS said")).toThrow(/duplicate key/)
      db.execute("ROLLBACK")
      expect(db.query("SELECT count(*)::int AS n FROM queued_writes")).toEqual([{ n: 0 }])
    } finally {
      db.close()
    }
  })

  it("inside a transaction block, sends the queued statements and the read together, before the first answer", async () => {
    const proxy = await answersHeldUntilSent((await testPostgres()).url)
    const db = SyncPg.connect(proxy.url, undefined, WAIT_MS)
    try {
      db.execute("CREATE TEMP TABLE pipelined (n int PRIMARY KEY)")
      db.execute("BEGIN")
      // No answer reaches the client until it has sent all four statements: one that waited
      // for each answer before sending the next would wait in vain.
      await proxy.holdAnswersUntil(4)
      for (const n of [1, 2, 3]) db.run("INSERT INTO pipelined VALUES ($1)", [n])
      expect(db.query("SELECT count(*)::int AS n FROM pipelined WHERE n > $1", [0])).toEqual([{ n: 3 }])

      await proxy.holdAnswersUntil(3)
      db.run("INSERT INTO pipelined VALUES ($1)", [2])
      db.run("INSERT INTO pipelined VALUES ($1)", [4])
      expect(() => db.query("SELECT $1::text AS said", ["not reached"])).toThrow(/duplicate key/)
      db.execute("ROLLBACK")
      expect(db.query("SELECT count(*)::int AS n FROM pipelined")).toEqual([{ n: 0 }])
    } finally {
      db.close()
      await proxy.close()
    }
  })

  it("outside a transaction block, sends queued statements one by one: none runs after one that failed", async () => {
    const db = SyncPg.connect((await testPostgres()).url)
    try {
      db.execute("CREATE TEMP TABLE one_by_one (n int PRIMARY KEY)")
      db.run("INSERT INTO one_by_one VALUES ($1)", [1])
      db.run("INSERT INTO one_by_one VALUES ($1)", [1])
      db.run("INSERT INTO one_by_one VALUES ($1)", [2])
      expect(() => db.flush()).toThrow(/duplicate key/)
      expect(db.query("SELECT n FROM one_by_one ORDER BY n")).toEqual([{ n: 1 }])
    } finally {
      db.close()
    }
  })

  it("sends a statement queued to run soon with the next one, or at the next turn of the event loop", async () => {
    const url = (await testPostgres()).url
    const db = SyncPg.connect(url)
    const watcher = SyncPg.connect(url)
    try {
      const { pid } = db.one<{ pid: number }>("SELECT pg_backend_pid() AS pid")!
      const state = () => watcher.one<{ state: string }>("SELECT state FROM pg_stat_activity WHERE pid = $1", [pid])!.state
      db.run("BEGIN READ ONLY")
      db.query("SELECT 1 AS one")
      db.runSoon("COMMIT")
      expect(state()).toBe("idle in transaction")
      const before = db.roundTrips
      db.run("BEGIN READ ONLY")
      expect(db.query("SELECT 2 AS two")).toEqual([{ two: 2 }])
      expect(db.roundTrips - before).toBe(1)
      db.runSoon("COMMIT")
      await new Promise((resolve) => setImmediate(resolve))
      expect(state()).toBe("idle")
    } finally {
      db.close()
      watcher.close()
    }
  })

  it("sends consecutive queued statements without parameters as one text", async () => {
    const db = SyncPg.connect((await testPostgres()).url)
    try {
      // A text's statements share the moment the server received it (statement_timestamp).
      db.run("CREATE TEMP TABLE stamps AS SELECT statement_timestamp() AS t")
      db.run("SELECT pg_sleep(0.05)")
      db.run("INSERT INTO stamps SELECT statement_timestamp()")
      db.run("INSERT INTO stamps SELECT statement_timestamp() FROM (SELECT $1::int) AS p", [1])
      expect(db.query("SELECT count(*)::int AS n, count(DISTINCT t)::int AS moments FROM stamps")).toEqual([{ n: 3, moments: 2 }])
    } finally {
      db.close()
    }
  })

  it("prepares a statement on the server when it is used again, and none inside unprepared", async () => {
    const db = SyncPg.connect((await testPostgres()).url)
    const preparedTexts = () => db.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements").map((r) => r.statement)
    try {
      const repeated = "SELECT $1::int + 1 AS next"
      expect(db.query(repeated, [1])).toEqual([{ next: 2 }])
      expect(preparedTexts()).not.toContain(repeated)
      expect(db.query(repeated, [2])).toEqual([{ next: 3 }])
      expect(db.query(repeated, [3])).toEqual([{ next: 4 }])
      expect(preparedTexts()).toContain(repeated)

      // Statements without parameters are never prepared: such a text may hold several.
      for (let i = 0; i < 3; i++) db.execute("CREATE TEMP TABLE IF NOT EXISTS twice_run (n int); INSERT INTO twice_run VALUES (1)")
      expect(db.query("SELECT count(*)::int AS n FROM twice_run")).toEqual([{ n: 3 }])

      const inShadows = "SELECT $1::int * 2 AS twice"
      db.unprepared(() => [1, 2, 3].forEach((n) => expect(db.query(inShadows, [n])).toEqual([{ twice: 2 * n }])))
      expect(preparedTexts()).not.toContain(inShadows)
    } finally {
      db.close()
    }
  })
})

/** The answer-holding proxy (support/answer-holding-proxy.mjs) in front of the server at `target`. */
const answersHeldUntilSent = async (target: string) => {
  const upstream = new URL(target)
  const proxy = fork(fileURLToPath(new URL("../support/answer-holding-proxy.mjs", import.meta.url)), [upstream.hostname, upstream.port])
  const [{ port }] = (await once(proxy, "message")) as [{ port: number }]
  upstream.port = String(port)
  return {
    url: upstream.toString(),
    holdAnswersUntil: async (count: number) => {
      proxy.send({ hold: count })
      await once(proxy, "message")
    },
    close: async () => {
      proxy.disconnect()
      if (proxy.exitCode === null) await once(proxy, "exit")
    }
  }
}
