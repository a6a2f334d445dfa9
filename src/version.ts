/** The package version, reported by `mem --version` and the server's health check. Kept in step with package.json (a test checks). */
export const VERSION = "0.1.0"
