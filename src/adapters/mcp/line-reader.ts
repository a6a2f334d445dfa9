/**
 * Splits a byte stream into lines of at most `limit` bytes. A longer line is reported once, as
 * soon as it passes the limit, and its bytes are dropped up to its newline, so neither memory
 * nor the stream is ever stuck on it; the lines after it are read as usual. (The SDK's reader
 * threw on such a line and its transport closed, leaving stdin paused and the process waiting
 * for an end of input it would never see.)
 */
export type LineEvent = { readonly line: string } | { readonly tooLong: true }

export class LineReader {
  private parts: Buffer[] = []
  private size = 0
  /** Inside a line that passed the limit: dropped up to its newline. */
  private skipping = false

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = []
    for (let start = 0; ; ) {
      const newline = chunk.indexOf(0x0a, start)
      this.take(chunk.subarray(start, newline < 0 ? chunk.length : newline), events)
      if (newline < 0) return events
      if (!this.skipping) events.push({ line: this.text() })
      this.reset()
      start = newline + 1
    }
  }

  /** At the end of input: the last line, when it has no newline. */
  end(): LineEvent[] {
    const last: LineEvent[] = this.skipping || this.size === 0 ? [] : [{ line: this.text() }]
    this.reset()
    return last
  }

  private take(part: Buffer, events: LineEvent[]): void {
    if (this.skipping || part.length === 0) return
    if (this.size + part.length > this.limit) {
      this.reset()
      this.skipping = true
      events.push({ tooLong: true })
      return
    }
    this.parts.push(part)
    this.size += part.length
  }

  private text(): string {
    return Buffer.concat(this.parts, this.size).toString("utf8").replace(/\r$/, "")
  }

  private reset(): void {
    this.parts = []
    this.size = 0
    this.skipping = false
  }
}
