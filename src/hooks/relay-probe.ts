/**
 * Whether a server listens for a store's hooks: the relay's server asks before it replaces a
 * socket file (a live server keeps its own), and `mem doctor` says where the hooks run. Apart
 * from hook-request.ts, which the hook bundle loads on every event: this needs node:net.
 */
import { createConnection } from "node:net"

/** Whether something answers a connection at the socket `path` (false for a file a killed server left, or none). */
export const listensAt = (path: string): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = createConnection(path)
    probe.once("connect", () => {
      probe.destroy()
      resolve(true)
    })
    probe.once("error", () => resolve(false))
  })
