// The analytics write thread's worker (analytics-write-thread.ts): its own connection to the
// SQLite file, the repository's prepared batch (sqliteRecorder), one batch per message.
import { parentPort, workerData } from 'node:worker_threads';
import { sqliteRecorder } from './analytics-repository.js';
import type { WriteReply, WriteRequest } from './analytics-write-thread.js';
import { openSqliteFile } from './connection.js';

const port = parentPort!;
const native = openSqliteFile((workerData as { file: string }).file);
const record = sqliteRecorder(native);

port.on('message', (request: WriteRequest) => {
  if (request.op === 'close') {
    native.close();
    port.close();
    return;
  }
  let reply: WriteReply;
  try {
    record(request.events);
    reply = { id: request.id };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
