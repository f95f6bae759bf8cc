/**
 * The ceiling: the least a Node HTTP server can do per request. It answers
 * every request with the same JSON body (the bytes of a real lookup
 * response, from the file BODY_FILE), on 127.0.0.1:PORT.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const port = Number(process.env.PORT);
const bodyFile = process.env.BODY_FILE;
if (!Number.isInteger(port) || port <= 0 || !bodyFile) {
  console.error('bench/ceiling.ts: set PORT and BODY_FILE');
  process.exit(2);
}
const body = readFileSync(bodyFile);
const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };

const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(port, '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
