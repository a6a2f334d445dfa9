/**
 * Opens a URL in the desktop's browser where there is a desktop: `open` on macOS, `xdg-open`
 * under X11 or Wayland, `start` on Windows. Anywhere else (a server, a container, CI) it does
 * nothing, and a missing or failing opener is never an error: the URL is printed either way.
 */
import { spawn } from "node:child_process"

export const openBrowser = (url: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean => {
  const opener = openerFor(env, platform)
  if (opener === undefined) return false
  try {
    const child = spawn(opener.command, [...opener.args, url], { stdio: "ignore", detached: true })
    child.on("error", () => undefined)
    child.unref()
    return true
  } catch {
    return false
  }
}

export const openerFor = (env: NodeJS.ProcessEnv, platform: NodeJS.Platform): { command: string; args: string[] } | undefined => {
  if (platform === "darwin") return { command: "open", args: [] }
  if (platform === "win32") return { command: "cmd", args: ["/c", "start", '""'] }
  if (env["DISPLAY"] || env["WAYLAND_DISPLAY"]) return { command: "xdg-open", args: [] }
  return undefined
}
