// An analysis on behalf of a request: a client that goes away cancels it (its pool slot and its
// page fetch are released at once), and its failures become the API's answers.
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { FetchError } from '../analysis/errors.js';
import { AnalyserBusyError } from '../reports/analysis-pool.js';
import { RenderError } from '../browser/renderer.js';
import { HttpError, ValidationError } from '../http/errors.js';

/** Retry-After, in seconds, when the renderer's queue is full. */
const RENDER_BUSY_RETRY_AFTER = 5;

/**
 * Runs `work` with a signal that aborts when the client closes the connection. A page that
 * cannot be analysed, or rendered, answers 422 on `url`; a browser that cannot start 422 on
 * `render`; a full pool (or render queue) 503 with Retry-After; a cancelled analysis 499
 * (nobody reads it, but the log shows why it stopped).
 */
export async function analysingFor<T>(
  request: { log: FastifyBaseLogger },
  reply: { raw: ServerResponse },
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client closed the connection'));
  };
  reply.raw.once('close', onClose);
  try {
    return await work(controller.signal);
  } catch (error) {
    if (error instanceof FetchError) throw new ValidationError({ url: [error.message] });
    if (error instanceof RenderError) throw renderFailure(request, error);
    if (error instanceof AnalyserBusyError) {
      throw new HttpError(503, error.message, { 'Retry-After': String(error.retryAfterSeconds) });
    }
    if (controller.signal.aborted) {
      request.log.info('analysis cancelled: the client went away');
      throw new HttpError(499, 'Client Closed Request');
    }
    throw error;
  } finally {
    reply.raw.off('close', onClose);
  }
}

/** A page the browser could not render is the page's fault (on `url`); a browser that would not start, the instance's. */
function renderFailure(request: { log: FastifyBaseLogger }, error: RenderError): HttpError | ValidationError {
  if (error.reason === 'busy') {
    return new HttpError(503, error.message, { 'Retry-After': String(RENDER_BUSY_RETRY_AFTER) });
  }
  if (error.reason === 'unavailable') {
    request.log.error({ err: error }, 'rendering unavailable');
    // Chromium's own start-up output stays in the log.
    return new ValidationError({ render: [error.message.split('\n')[0]] });
  }
  return new ValidationError({ url: [error.message] });
}
