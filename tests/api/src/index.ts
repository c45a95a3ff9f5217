/** Helpers of the black-box API suite (the tests themselves are `src/*.test.ts`). */
export { startTarget, type Target } from './support/target';
export { raw, assertAppError, assertJson, cookieValue, cookieLine, sleep, type RawResponse, type RawOptions } from './support/http';
export { newClient, expectClientError } from './support/client';
export * from './support/fixtures';
