/**
 * `mem mcp`'s transport: newline-delimited JSON-RPC on stdin and stdout, as the SDK's stdio
 * transport, but every line gets an answer or is passed on (jsonrpc-line.ts), and no line,
 * however long or malformed, stops the reading (line-reader.ts). So the process always sees the
 * end of its input, and ends then (stdio.ts).
 */
import type { Readable, Writable } from "node:stream"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import { readJsonRpcLine, tooLongReply } from "./jsonrpc-line.js"
import { LineReader, type LineEvent } from "./line-reader.js"

/** The longest line read: the SDK's own limit, 10 MiB. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024

export class StdioLineTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private readonly reader = new LineReader(MAX_LINE_BYTES)

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable
  ) {}

  async start(): Promise<void> {
    this.stdin.on("data", this.onData)
    this.stdin.on("end", this.onEnd)
    this.stdin.on("error", this.onStdinError)
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message)
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.onData)
    this.stdin.off("end", this.onEnd)
    this.stdin.off("error", this.onStdinError)
    this.onclose?.()
  }

  private readonly onData = (chunk: Buffer | string): void => this.handle(this.reader.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)))
  private readonly onEnd = (): void => this.handle(this.reader.end())
  private readonly onStdinError = (error: Error): void => this.onerror?.(error)

  private handle(events: ReadonlyArray<LineEvent>): void {
    for (const event of events) {
      if ("tooLong" in event) {
        void this.write(tooLongReply(MAX_LINE_BYTES))
        continue
      }
      // Blank lines carry no message; they are not worth an error.
      if (event.line.trim().length === 0) continue
      const read = readJsonRpcLine(event.line)
      if ("reply" in read) void this.write(read.reply)
      else this.onmessage?.(read.message)
    }
  }

  private write(value: object): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(value)}\n`)) resolve()
      else this.stdout.once("drain", resolve)
    })
  }
}
