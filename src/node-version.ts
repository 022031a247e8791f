// better-sqlite3 13 needs Node-API 10 (Node 22.14 and later) and crashes the process (a segmentation
// fault, no message) on Node 20 when it opens a database. Every command that opens one says so in one
// line instead: the service, npm run replay and npm run verify-history.
export function refuseUnsupportedNode(): void {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 14)) {
    console.error(`Node.js ${process.versions.node} is not supported: use Node.js 24 LTS (or 22.14 and later); see README.md, "Run it".`);
    process.exit(1);
  }
}
