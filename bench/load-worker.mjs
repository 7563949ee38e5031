// The HTTP clients of the list benchmark, in a worker thread: their own event loop (and core), so
// the latencies measured are the server's, not the load generator's queueing in the same loop.
import { performance } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";

const { url, token, paths, clients, seconds } = workerData;
let turn = 0;
const samples = [];
let failures = 0;
const until = performance.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (performance.now() < until) {
      const path = paths[turn++ % paths.length];
      const start = performance.now();
      const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (!res.ok) failures++;
      samples.push(performance.now() - start);
    }
  }),
);
parentPort.postMessage({ samples, failures });
