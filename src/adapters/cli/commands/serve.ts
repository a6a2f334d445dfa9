/** `mem serve`: the REST API (and later /mcp) over one open store; see docs/serve.md. */
import { Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { defaultDbPath } from "../../../services/app.js"
import { DEFAULT_HOST, DEFAULT_PORT } from "../../http/bind-host.js"
import * as O from "../options.js"
import { mem } from "../root.js"

export const serve = Command.make(
  "serve",
  {
    host: Options.text("host").pipe(
      Options.withDescription("the address to listen on; anything but loopback needs a bearer token"),
      Options.withDefault(DEFAULT_HOST)
    ),
    port: Options.integer("port").pipe(Options.withDescription("the port; 0 picks a free one"), Options.withDefault(DEFAULT_PORT)),
    allowHosts: Options.text("allow-host").pipe(
      Options.withDescription("another host name clients may address the server by (repeat for more)"),
      Options.repeated
    ),
    createToken: Options.boolean("create-token").pipe(
      Options.withDescription("generate ~/.memledger/token if there is none and require its token, on loopback too (a non-loopback bind needs a token)")
    ),
    backup: Options.text("backup").pipe(
      Options.withDescription("keep daily backups in DIR: one at start if the newest there is a day old, then every 24 hours (docs/backups.md)"),
      Options.optional
    )
  },
  (a) =>
    Effect.flatMap(mem, ({ db }) =>
      // Loaded only here: the server and the HttpApi machinery stay out of every other command's start-up.
      Effect.flatMap(Effect.promise(() => import("./serve-run.js")), ({ runServe }) =>
        runServe({
          db: Option.getOrElse(db, () => defaultDbPath()),
          host: a.host,
          port: a.port,
          allowHosts: a.allowHosts,
          createToken: a.createToken,
          ...O.some("backup", a.backup)
        })
      )
    )
).pipe(Command.withDescription("Serve the REST API, MCP and the console over HTTP (127.0.0.1:7077 by default) until stopped"))
