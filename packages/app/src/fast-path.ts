// Puts the adapters' node:http fast paths in front of the Effect server: each request the server
// emits is offered to them first, and only a request none of them answers reaches the Effect app.
// (NodeHttpServer adds its own "request" listener; wrapping `emit` is what lets a fast path take a
// request without that listener also seeing it.) The wrapper is removed when its scope closes. With
// metrics on, each answer a fast path gives is counted and timed as the routes' answers are.
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { FastPath } from "@folio/adapters-http"
import { makeFastPathMetrics } from "@folio/adapters-http/shared"
import { Effect } from "effect"

export const installFastPaths = (server: Server, paths: ReadonlyArray<FastPath>) =>
  Effect.acquireRelease(
    Effect.map(makeFastPathMetrics, (measured) => {
      const emit = server.emit
      server.emit = function (this: Server, event: string | symbol, ...args: Array<unknown>): boolean {
        if (event === "request") {
          const [request, response] = args as [IncomingMessage, ServerResponse]
          const started = measured === undefined ? 0 : performance.now()
          for (const path of paths) {
            try {
              if (path(request, response)) {
                measured?.(request, response, started)
                return true
              }
            } catch (e) {
              // A fast path that fails leaves the request to the app, which answers it properly.
              console.error("fast path failed; the request goes to the app", e)
              if (response.headersSent) return true
            }
          }
        }
        return Reflect.apply(emit, this, [event, ...args]) as boolean
      } as Server["emit"]
      return emit
    }),
    (emit) =>
      Effect.sync(() => {
        server.emit = emit
      })
  )
