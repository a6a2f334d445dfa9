/** `mem ui`: the console for the current store, on a loopback server of its own; see docs/console.md. */
import { Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { defaultDbPath } from "../../../services/app.js"
import { mem } from "../root.js"

export const ui = Command.make(
  "ui",
  {
    port: Options.integer("port").pipe(Options.withDescription("the port; 0 (the default) picks a free one"), Options.withDefault(0)),
    noOpen: Options.boolean("no-open").pipe(Options.withDescription("print the console's address without opening a browser"))
  },
  (a) =>
    Effect.flatMap(mem, ({ db }) =>
      Effect.flatMap(Effect.promise(() => import("./serve-run.js")), ({ runServe }) =>
        Effect.flatMap(Effect.promise(() => import("../open-browser.js")), ({ openBrowser }) =>
          runServe({
            db: Option.getOrElse(db, () => defaultDbPath()),
            host: "127.0.0.1",
            port: a.port,
            allowHosts: [],
            createToken: false,
            taskPlace: { cwd: process.cwd(), env: process.env },
            onServing: (url) => {
              process.stdout.write(`memledger console: ${url}/\n`)
              if (!a.noOpen) openBrowser(`${url}/`)
            }
          })
        )
      )
    )
).pipe(Command.withDescription("Open the console (a web page) for this store on a loopback server, until stopped"))
