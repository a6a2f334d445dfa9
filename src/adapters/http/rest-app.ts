/**
 * The REST API as a web handler (`Request` in, `Response` out) over an already-running
 * `Operations` (and the store's `Console`, for the live log), so `mem serve` shares one open store between REST and MCP. The OpenAPI
 * document is served at /openapi.json from the same declaration.
 */
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { Layer } from "effect"
import { Operations, type OperationsApi } from "../../api/operations.js"
import { Console, type ConsoleApi } from "../../services/console.js"
import { RestApiLive } from "./rest-handlers.js"

export const makeRestWebHandler = (operations: OperationsApi, console: ConsoleApi) =>
  HttpApiBuilder.toWebHandler(
    Layer.mergeAll(
      HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" }).pipe(
        Layer.provideMerge(RestApiLive.pipe(Layer.provide([Layer.succeed(Operations, operations), Layer.succeed(Console, console)])))
      ),
      HttpServer.layerContext
    )
  )
