// CI: holds the given TCP ports (the gateway's defaults) while the test suite runs, so that a test binding a
// fixed port fails here as it would on a host where Prometheus or another service has them. Prints "holding".
import { createServer } from 'node:net';

const ports = process.argv.slice(2).map(Number);
await Promise.all(
  ports.map(
    (port) =>
      new Promise((resolve) => {
        const server = createServer((socket) => socket.destroy());
        server.once('error', (e) => {
          // Already taken by another process: held all the same.
          console.log(`port ${port}: ${e.code}`);
          resolve();
        });
        server.listen(port, () => resolve());
      }),
  ),
);
console.log(`holding ${ports.join(', ')}`);
setInterval(() => {}, 1 << 30);
