/**
 * What the bound address means for security: whether it is loopback (reachable only from this
 * machine), and by which host names a request may address the server. The second is the
 * DNS-rebinding defence: a web page on evil.example that rebinds its name to 127.0.0.1 still
 * sends `Host: evil.example`, which no server of ours accepts.
 */
import { isIP } from "node:net"
import { hostname, networkInterfaces } from "node:os"

export const DEFAULT_HOST = "127.0.0.1"
/**
 * The port the other surfaces assume (MEMLEDGER_URL examples, the SDK). Apache Spark's
 * standalone master also defaults to 7077: whoever runs both passes --port.
 */
export const DEFAULT_PORT = 7077

export const isLoopbackHost = (host: string): boolean => {
  const h = unbracket(host.toLowerCase())
  if (h === "localhost" || h === "::1") return true
  return isIP(h) === 4 && h.startsWith("127.")
}

/** 0.0.0.0 and :: listen on every interface. */
export const isWildcardHost = (host: string): boolean => ["0.0.0.0", "::", "[::]"].includes(host)

/** `host` as it appears in a URL or a Host header: IPv6 in brackets, lower-case. */
export const urlHost = (host: string): string => {
  const h = unbracket(host.toLowerCase())
  return isIP(h) === 6 ? `[${h}]` : h
}

/**
 * The names (in URL form, without port) that a request's Host and Origin may carry, at the
 * server's own port only: the bound host; for loopback also localhost, 127.0.0.1 and [::1];
 * for a wildcard bind also this machine's addresses and host name.
 */
export const acceptedHostNames = (host: string): ReadonlySet<string> => {
  const names = new Set<string>([urlHost(host)])
  if (isLoopbackHost(host) || isWildcardHost(host)) for (const n of ["localhost", "127.0.0.1", "[::1]"]) names.add(n)
  if (isWildcardHost(host)) {
    names.add(urlHost(hostname()))
    for (const addresses of Object.values(networkInterfaces())) {
      for (const a of addresses ?? []) names.add(urlHost(a.address.split("%")[0]!))
    }
  }
  return names
}

/** An `--allow-host` name: without a port it matches any port (or none), with one only that port. */
export interface AllowedHost {
  readonly name: string
  readonly port: number | undefined
}

/**
 * `mem.example`, `mem.example:443`, `[::1]:8080` or a bare IPv6 address. A name without a port
 * matches any: behind a reverse proxy the Host is the proxy's (`mem.example`,
 * `mem.example:443`), never the server's own port. The user named the host, so no rebinding
 * page can use it; the bound host itself keeps the strict host:port rule.
 */
export const parseAllowedHost = (text: string): AllowedHost => {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(text.trim())
  return match === null ? { name: urlHost(text.trim()), port: undefined } : { name: urlHost(match[1]!), port: Number(match[2]) }
}

const unbracket = (host: string) => (host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host)
