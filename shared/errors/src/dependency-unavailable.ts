import { isAppError, type AppError } from './app-error';
import { commonErrors, unavailable } from './factories';

/**
 * The MongoDB driver's errors for "no server to talk to" (its documented error classes, matched by `name`
 * so that this package needs no driver): selection timed out, the connection broke or timed out, the pool
 * was cleared after such a failure, the client is not connected or closed.
 */
const STORE_UNREACHABLE = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
]);

/**
 * kafkajs' errors for "no broker to talk to" (matched by `name`, as above): the connection was refused, closed
 * or timed out, no broker or coordinator is known, or its retries on such an error ran out. kafkajs wraps the
 * first in KafkaJSNonRetriableError with the original as `cause`, which the check below follows.
 */
const BROKER_UNREACHABLE = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNoBrokerAvailableError',
  'KafkaJSGroupCoordinatorNotFound',
  'KafkaJSNumberOfRetriesExceeded',
]);

/**
 * Server error codes of a server that cannot serve for now (the driver's retryable codes): shutting down
 * (91 ShutdownInProgress, 11600 InterruptedAtShutdown; what a stopping server answers to the operations it
 * still has), not primary (10107, 13435, 13436, 189, 11602), network (6, 7, 89, 9001).
 */
const SERVER_UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436]);

/**
 * Whether an error means that a dependency (the MongoDB-wire store, the Kafka brokers, or another service answering 503) is
 * unreachable for now, as opposed to a fault of the request or the message: such a failure is answered with a
 * 503 and retried by consumers without spending a message's attempts. Follows `cause` chains.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (isAppError(e)) return e.statusCode === 503;
    const { name, message } = e as { name?: unknown; message?: unknown };
    if (typeof name !== 'string') continue;
    if (STORE_UNREACHABLE.has(name) || BROKER_UNREACHABLE.has(name)) return true;
    if (name === 'MongoServerError' && SERVER_UNAVAILABLE_CODES.has(Number((e as { code?: unknown }).code))) return true;
    // mongoose queues operations while its connection is down and gives up after bufferTimeoutMS.
    if (name === 'MongooseError' && typeof message === 'string' && message.includes('buffering timed out')) return true;
  }
  return false;
}

/**
 * An unreachable dependency as the answer: 503 `api.context.server_busy.app_error`, the reference's "try again
 * later" (never a 500); the driver's error name only in detailed_error (shown with developer mode on).
 */
export function dependencyUnavailableError(cause: unknown): AppError {
  const busy = commonErrors.serverBusy();
  const name = (cause as { name?: unknown } | null)?.name;
  return unavailable(busy.id, busy.message, { cause, detailedError: `dependency unavailable: ${typeof name === 'string' ? name : 'error'}` });
}
