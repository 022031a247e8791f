// Closing the HTTP server with a deadline. server.close() alone stops accepting and closes idle
// keep-alive sockets, but waits without end for a socket holding a half-sent request (headers or
// body): one slow or hostile client could hold a shutdown for as long as it likes. Here every
// request still open gets until the deadline, then its socket is destroyed.
import type { Server } from 'node:http';

export function closeServer(server: Server, deadlineMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // close() already does this on Node 19+; said again so that it does not depend on the version.
  server.closeIdleConnections();
  const deadline = setTimeout(() => server.closeAllConnections(), deadlineMs);
  return closed.finally(() => clearTimeout(deadline));
}
