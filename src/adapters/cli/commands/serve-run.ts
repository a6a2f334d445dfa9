/**
 * What `mem serve` does once its flags are read: settle the token, open the store once (one
 * `ManagedRuntime`), serve REST and MCP (`/mcp`) over it until SIGTERM or SIGINT, then
 * close the server (draining requests in flight) before the runtime, which closes the store.
 * NodeRuntime.runMain turns the signal into an interruption, which runs these finalizers in
 * reverse order and exits 0.
 */
import { Cause, Context, Effect, Either, Exit, Layer, ManagedRuntime, Option } from "effect"
import { Operations } from "../../../api/operations.js"
import { listenForHooks } from "../../hook/relay-server.js"
import { LocalOperationsLayer, StoreLive } from "../../../services/app.js"
import { DEFAULT_CONFIG } from "../../../config.js"
import { People, PeopleLive } from "../../../services/people.js"
import { Console, ConsoleTaskPlace } from "../../../services/console.js"
import type { TaskPlace } from "../../../tasks/task.js"
import { makeMcpWebHandler } from "../../mcp/http.js"
import { runOn } from "../../mcp/runtime.js"
import { isLoopbackHost } from "../../http/bind-host.js"
import { makeJsonRoutes } from "../../http/json-routes.js"
import { logDefects } from "../../http/log-defects.js"
import { makeRestWebHandler } from "../../http/rest-app.js"
import { startServer } from "../../http/server.js"
import { resolveToken, type TokenSetup } from "../../http/token.js"
import { fail } from "../output.js"
import { planBackups } from "./serve-backups.js"
import { forTerminal } from "../terminal-text.js"

export interface ServeSettings {
  readonly db: string
  readonly host: string
  readonly port: number
  readonly allowHosts: ReadonlyArray<string>
  readonly createToken: boolean
  /** Called with the bound URL once the server answers (`mem ui` prints it and opens a browser). */
  readonly onServing?: (url: string) => void
  /** Where to look for Beads and Claude Code tasks to list in the console (`mem ui`: its folder). */
  readonly taskPlace?: TaskPlace
  /** The folder `--backup` names: a verified copy there every day (serve-backups.ts). */
  readonly backup?: string
}

// A log line may quote a request's path or a client's name: shown, never obeyed, by a terminal.
const log = (line: string) => void process.stderr.write(`mem: ${forTerminal(line)}\n`)

export const runServe = (settings: ServeSettings): Effect.Effect<void> =>
  Effect.gen(function* () {
    if (!Number.isInteger(settings.port) || settings.port < 0 || settings.port > 65535) {
      return fail(false, "UsageError", `--port takes 0 to 65535 (0: any free port), not ${settings.port}`)
    }
    const loopback = isLoopbackHost(settings.host)
    const first = resolveToken({ loopback, create: settings.createToken })
    // Off loopback without a token of its own, a server may still start on a store whose people
    // have tokens: then every request must bring one of theirs (identify.ts).
    const token = Either.isLeft(first) && !loopback && !settings.createToken && (yield* storeHasTokens(settings.db)) ? resolveToken({ loopback, create: false, storeHasTokens: true }) : first
    if (Either.isLeft(token)) return fail(false, "TokenRefused", `refusing to start: ${token.left.message}`, 1)
    // Serving ends only by interruption (a signal) or by failing to start (the store, the port).
    const served = yield* Effect.exit(Effect.scoped(serveUntilInterrupted(settings, token.right)))
    if (Exit.isFailure(served) && !Cause.isInterruptedOnly(served.cause)) {
      const failure = Cause.failureOption(served.cause)
      fail(false, "ServeFailed", Option.isSome(failure) ? messageOf(failure.value) : Cause.pretty(served.cause), 1)
    }
  })

/** Whether the store (which must exist already) holds people's tokens; a store that cannot be opened holds none. */
const storeHasTokens = (db: string): Effect.Effect<boolean> =>
  Effect.flatMap(People, (people) => people.any).pipe(
    Effect.provide(PeopleLive.pipe(Layer.provide(StoreLive(db, DEFAULT_CONFIG, { create: false })))),
    Effect.scoped,
    Effect.orElseSucceed(() => false)
  )

const serveUntilInterrupted = (settings: ServeSettings, token: TokenSetup) =>
  Effect.gen(function* () {
    const managed = yield* Effect.acquireRelease(
      // Always the file: a server serves its own store, it never forwards to MEMLEDGER_URL.
      Effect.sync(() =>
        ManagedRuntime.make(
          settings.taskPlace === undefined
            ? LocalOperationsLayer(settings.db)
            : LocalOperationsLayer(settings.db).pipe(Layer.provide(Layer.succeed(ConsoleTaskPlace, settings.taskPlace)))
        )
      ),
      (runtime) => Effect.promise(() => runtime.dispose())
    )
    const context = (yield* managed).context
    const logged = logDefects(Context.get(context, Operations), log)
    const people = Context.get(context, People)
    const rest = makeRestWebHandler(logged, Context.get(context, Console))
    // MCP over Streamable HTTP shares the one open store with REST.
    const mcp = makeMcpWebHandler({ run: runOn(managed) })
    const server = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () =>
          startServer({
            host: settings.host,
            port: settings.port,
            token: token.token,
            tokenSource: token.source,
            people: { verify: (offered) => managed.runPromise(people.verify(offered)), any: () => managed.runPromise(people.any) },
            api: { handle: (request) => rest.handler(request), close: () => rest.dispose() },
            json: makeJsonRoutes(logged, log),
            extraRoutes: [{ path: "/mcp", handle: mcp.handle, close: mcp.close }],
            allowHosts: settings.allowHosts,
            log
          }),
        catch: (error) => error
      }),
      (running) => Effect.promise(() => running.close())
    )
    if (token.source === "created") log(`created a bearer token in ${token.file} (owner-only); give it to clients as MEMLEDGER_TOKEN`)
    if (settings.createToken && token.source === "env") log("MEMLEDGER_TOKEN is set, so that is the token; no token file was read or created")
    if (token.token !== null) log(`every request but GET /health needs 'Authorization: Bearer <token>' (the token from ${token.source === "env" ? "MEMLEDGER_TOKEN" : token.file})`)
    else if (yield* people.any) log("every request but GET /health needs 'Authorization: Bearer <token>': a token 'mem token add' made")
    // The agent hooks of this store, run here rather than each loading and opening it again.
    yield* Effect.acquireRelease(
      Effect.promise(() => listenForHooks(settings.db, runOn(managed))),
      (relay) => Effect.promise(async () => relay?.close())
    )
    if (settings.backup !== undefined) yield* Effect.forkScoped(yield* planBackups(settings.db, settings.backup, log))
    // One line, always last and always this shape: scripts and tests read the bound URL from it.
    log(`serving ${server.url}`)
    settings.onServing?.(server.url)
    return yield* Effect.never
  })

const messageOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" ? error.message : String(error)
