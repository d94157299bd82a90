// The analytics write thread's worker (analytics-write-thread.ts): its own connection to the
// SQLite file, the prepared batch (analytics-batch.ts, sqliteRecorder), one batch per message.
import { parentPort, workerData } from 'node:worker_threads';
import { sqliteRecorder } from './analytics-batch.js';
import type { WriteReply, WriteRequest, WriteThreadData } from './analytics-write-thread.js';
import { openSqliteFile } from './connection.js';

const port = parentPort!;
const data = workerData as WriteThreadData;
const native = openSqliteFile(data.file);
const record = sqliteRecorder(native, data.maxValues);

port.on('message', (request: WriteRequest) => {
  if (request.op === 'close') {
    native.close();
    port.close();
    return;
  }
  let reply: WriteReply;
  try {
    const failures = record(request.events);
    reply =
      failures.length === 0 ? { id: request.id } : { id: request.id, failed: failures.map((f) => [f.index, f.error.message]) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
