// The event worker scripts append: a global memory added by worker WORKER at time AT (ms), with
// ids from `ulid` (makeIdFactory), its origin `worker:WORKER`, so a test can count each
// worker's events in the log.
export const workerNote = (ulid, at, worker, content) => ({
  id: ulid(at),
  recordedAt: new Date(at).toISOString(),
  origin: `worker:${worker}`,
  agent: "test",
  event: {
    _tag: "MemoryAdded", memoryId: ulid(at), content, category: "general",
    scope: "global", project: null, tags: [], source: "explicit", status: "confirmed", confidence: 0.9
  }
})
